// test/coverage/check.mjs on a scratch repository: figures per package from Vitest's
// coverage-summary.json, a package below its floor fails, --raise only raises, and a floor
// lowered in a later commit fails however the file now reads.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

const SCRIPT = resolve(fileURLToPath(import.meta.url), '../check.mjs');

function metric(covered: number, total: number) {
  return { total, covered, skipped: 0, pct: (covered / total) * 100 };
}

/** A repository with a coverage summary: `lines`/`branches` covered of 100 per file. */
async function scratch(files: Record<string, { lines: number; branches: number }>): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), 'travsr-coverage-'));
  mkdirSync(join(root, 'coverage'));
  mkdirSync(join(root, 'test', 'coverage'), { recursive: true });
  const summary: Record<string, unknown> = { total: {} };
  for (const [file, f] of Object.entries(files))
    summary[join(root, file)] = {
      lines: metric(f.lines, 100),
      statements: metric(f.lines, 100),
      functions: metric(f.lines, 100),
      branches: metric(f.branches, 100),
    };
  writeFileSync(join(root, 'coverage', 'coverage-summary.json'), JSON.stringify(summary));
  await git(root, 'init', '-q');
  return root;
}

function git(root: string, ...args: string[]) {
  return execa('git', ['-c', 'user.email=t@example.org', '-c', 'user.name=t', ...args], { cwd: root });
}

function floors(root: string, packages: Record<string, { lines: number; branches: number }>): void {
  writeFileSync(join(root, 'test', 'coverage', 'floors.json'), JSON.stringify({ packages }));
}

function check(root: string, ...args: string[]) {
  return execa('node', [SCRIPT, ...args], { env: { TRAVSR_COVERAGE_ROOT: root }, reject: false });
}

describe('coverage:check', () => {
  it('prints each package and passes at or above the floors; a package below one fails, named', async () => {
    const root = await scratch({
      'host/src/a.ts': { lines: 90, branches: 80 },
      'host/src/b.ts': { lines: 70, branches: 60 },
      'plugins/lang-x/src/main.ts': { lines: 50, branches: 40 },
    });
    floors(root, { host: { lines: 80, branches: 70 }, 'plugins/lang-x': { lines: 50, branches: 40 } });
    const ok = await check(root);
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^ {2}host +80\.0 % +70\.0 % +80\.0 % +80\.0 % +80 \/ 70 +ok$/m);
    expect(ok.stdout).toMatch(/^ {2}plugins\/lang-x +50\.0 %/m);

    floors(root, { host: { lines: 81, branches: 70 }, 'plugins/lang-x': { lines: 50, branches: 40 } });
    const below = await check(root);
    expect(below.exitCode).toBe(1);
    expect(below.stdout).toMatch(/^ {2}host .* BELOW$/m);
    expect(below.stderr).toContain('host: lines 80 % is below its floor of 81 %');
  });

  it('--raise lifts floors to what was reached less a point and never lowers one; a floor lowered in a later commit fails', async () => {
    const root = await scratch({ 'registry/src/a.ts': { lines: 92, branches: 85 }, 'sdk/src/b.ts': { lines: 40, branches: 30 } });
    floors(root, { sdk: { lines: 60, branches: 20 } });
    const raised = await check(root, '--raise');
    expect(raised.exitCode, raised.stderr).toBe(0);
    const written = JSON.parse(readFileSync(join(root, 'test', 'coverage', 'floors.json'), 'utf8')) as {
      packages: Record<string, { lines: number; branches: number }>;
    };
    expect(written.packages).toEqual({ registry: { lines: 91, branches: 84 }, sdk: { lines: 60, branches: 29 } });
    await git(root, 'add', '-A');
    await git(root, 'commit', '-qm', 'floors');

    floors(root, { registry: { lines: 80, branches: 84 }, sdk: { lines: 30, branches: 29 } });
    await git(root, 'commit', '-qam', 'lower the floors');
    const lowered = await check(root);
    expect(lowered.exitCode).toBe(1);
    expect(lowered.stderr).toContain('registry: the lines floor in test/coverage/floors.json is 80, but it was 91: floors only go up');
  });

  it('says what to run when there is no coverage summary', async () => {
    const root = mkdtempSync(join(tmpdir(), 'travsr-coverage-'));
    const r = await check(root);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('run the suite with coverage first: TRAVSR_COVERAGE=1 npm test');
  });
});
