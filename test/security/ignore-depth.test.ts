// Finding 5 of issue 12: one matcher per directory made ignore matching quadratic in depth.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { travsr } from '../helpers/run-cli.js';

const PATTERNS = 4000;
// Deeper than the 500 so that the old cost (depth² × patterns, about 2·10⁹ rule tests)
// and the new one (depth × patterns) are far apart.
const DEPTH = 1000;

const root = mkdtempSync(join(tmpdir(), 'travsr-ignore-depth-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('finding 5: Ignore matching is quadratic in directory depth', () => {
  it(`travsr init indexes a ${DEPTH}-deep tree under a .gitignore of ${PATTERNS} genN/**/*.tmp patterns`, async () => {
    const patterns = Array.from({ length: PATTERNS }, (_, i) => `gen${i}/**/*.tmp`);
    writeFileSync(join(root, '.gitignore'), `${patterns.join('\n')}\nignored-*.ts\n`);
    const deep = join(root, ...Array.from({ length: DEPTH }, () => 'd'));
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(deep, 'deep.ts'), 'export function deepestFunction(): number {\n  return 500;\n}\n');
    // The rules still hold at that depth.
    writeFileSync(join(deep, 'ignored-deep.ts'), 'export function ignoredFunction(): void {}\n');

    // Before the fix this ran for half an hour; now the walks take seconds (about 30 s for the
    // whole init on a loaded 2-core box). The CLI limit is far above the one and far below the other.
    const init = await travsr(['init', root, '--no-hook', '--json'], { timeoutMs: 300_000 });
    expect(init.code, init.stderr).toBe(0);

    const deepRel = `${Array.from({ length: DEPTH }, () => 'd').join('/')}/deep.ts`;
    const found = await travsr(['ask', 'deepestFunction', '--repo', root, '--json']);
    expect(found.code, found.stderr).toBe(0);
    const answer = JSON.parse(found.stdout) as { nodes: { name: string; path: string }[] };
    expect(answer.nodes.some((n) => n.name === 'deepestFunction' && n.path === deepRel)).toBe(true);

    const ignored = await travsr(['ask', 'ignoredFunction', '--repo', root, '--json']);
    expect(ignored.code, ignored.stderr).toBe(0);
    const left = JSON.parse(ignored.stdout) as { nodes: { name: string }[] };
    expect(left.nodes.map((n) => n.name)).not.toContain('ignoredFunction');
  }, 420_000);
});
