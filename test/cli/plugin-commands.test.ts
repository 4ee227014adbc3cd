// The real CLI end to end: scaffold a plugin, test it in the sandbox, break it, read the
// traces, and grant/revoke unsandboxed runs.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { travsr } from '../helpers/run-cli.js';
import { buildMisbehavePlugins } from '../helpers/fixture-plugins.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'travsr-cli-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('travsr CLI', () => {
  it('--help lists the command topics', async () => {
    const r = await travsr(['--help']);
    expect(r.code).toBe(0);
    for (const topic of ['plugin', 'trace', 'lang']) expect(r.stdout).toMatch(new RegExp(`^\\s+${topic}\\s`, 'm'));
  });

  it('plugin new scaffolds a plugin that passes `plugin test` in the standard tier as generated', async () => {
    const dir = join(work, 'lang-mylang');
    const made = await travsr(['plugin', 'new', dir, '--language', 'mylang', '--extension', '.my']);
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    expect(made.stdout).toContain('created plugin lang-mylang');
    expect(JSON.parse(readFileSync(join(dir, 'travsr-plugin.json'), 'utf8'))).toMatchObject({
      id: 'lang-mylang',
      languages: ['mylang'],
      extensions: ['.my'],
    });
    expect(readFileSync(join(dir, 'snapshots/output/example.my'), 'utf8')).toMatch(/definition function/);
    // The SDK as the npm registry publishes it, at this Travsr's version: no path into this checkout.
    const sdkVersion = (JSON.parse(readFileSync(join(repoRoot, 'sdk', 'package.json'), 'utf8')) as { version: string }).version;
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(pkg.devDependencies['@travsr/sdk']).toBe(`^${sdkVersion}`);

    const tested = await travsr(['plugin', 'test', dir]);
    expect(tested.code, tested.stdout + tested.stderr).toBe(0);
    expect(tested.stdout).toMatch(/PASS: \d+\/\d+ checks passed/);
    expect(tested.stdout).toMatch(/tier standard · trace [0-9a-f-]{36}/);

    const json = await travsr(['plugin', 'test', dir, '--json']);
    const report = JSON.parse(json.stdout) as { ok: boolean; tier: string; checks: { name: string; ok: boolean }[] };
    expect(report.ok).toBe(true);
    expect(report.tier).toBe('standard');
    expect(report.checks.length).toBeGreaterThanOrEqual(10);

    // Packed as generated, its SBOM is complete: the bundler's record names the SDK it bundles.
    const packed = await travsr(['plugin', 'pack', dir, '--out', join(work, 'packed'), '--json']);
    expect(packed.code, packed.stderr).toBe(0);
    const sbom = (JSON.parse(packed.stdout) as { sbom: { file: string; aggregate: string } }).sbom;
    expect(sbom.aggregate).toBe('complete');
    const bom = JSON.parse(readFileSync(sbom.file, 'utf8')) as { components: { name: string; version: string }[] };
    expect(bom.components).toContainEqual(expect.objectContaining({ name: '@travsr/sdk', version: sdkVersion }));
  });

  it('plugin new refuses a directory that is not empty', async () => {
    const dir = join(work, 'taken');
    await travsr(['plugin', 'new', dir]);
    const again = await travsr(['plugin', 'new', dir]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists and is not empty/);
  });

  it('plugin test reports a broken plugin, exits 1, and the failure is in the traces', async () => {
    const plugins = await buildMisbehavePlugins(['crash']);
    const r = await travsr(['plugin', 'test', plugins.dir('crash')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✗ analyze fixtures|✗ analyze/);
    expect(r.stdout).toMatch(/FAIL: \d+\/\d+ checks passed/);
    const id = /trace ([0-9a-f-]{36})/.exec(r.stdout)?.[1];
    expect(id).toBeDefined();

    const list = await travsr(['trace', 'list', '--global', '--status', 'error']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(id!.slice(0, 8));
    expect(list.stdout).toContain('misbehave@1.0.0');

    const show = await travsr(['trace', 'show', id!.slice(0, 8), '--global']);
    expect(show.code).toBe(0);
    expect(show.stdout).toMatch(/status\s+error — CONFORMANCE_FAILED/);
    expect(show.stdout).toMatch(/ok\s+network: requested/);
    const json = JSON.parse((await travsr(['trace', 'show', id!, '--global', '--json'])).stdout) as {
      tier: string;
      transitions: unknown[];
    };
    expect(json.tier).toBe('standard');
    expect(json.transitions.length).toBeGreaterThan(3);
    rmSync(plugins.root, { recursive: true, force: true });
  });

  it('plugin test refuses a plugin that asks for more than the tier grants, naming the constraint', async () => {
    const plugins = await buildMisbehavePlugins(['ok']);
    const manifestPath = join(plugins.dir('ok'), 'travsr-plugin.json');
    const m = JSON.parse(readFileSync(manifestPath, 'utf8')) as { constraints: Record<string, unknown> };
    m.constraints.network = { allow: ['pkg.example.org:443'] };
    writeFileSync(manifestPath, JSON.stringify(m));
    const r = await travsr(['plugin', 'test', plugins.dir('ok')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /Error \[CONSTRAINT_REFUSED\]: misbehave@1.0.0 asks for more than the standard tier grants: .*network \(requested hosts pkg.example.org:443, granted none\)/,
    );
    expect(r.stderr).toMatch(/--tier elevated/);
    rmSync(plugins.root, { recursive: true, force: true });
  });

  it('plugin test on a folder without a manifest says what to do', async () => {
    const r = await travsr(['plugin', 'test', work]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /Error \[PLUGIN_NOT_FOUND\]: .* is not a Travsr plugin: it has no travsr-plugin.json; scaffold one with `travsr plugin new <dir>`/,
    );
  });

  it('trace show of an unknown id is a clear error', async () => {
    const r = await travsr(['trace', 'show', 'ffffffff', '--global']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Error \[TRACE_NOT_FOUND\]: no trace ffffffff/);
  });

  it('lang allow-unsandboxed records and revokes the permission in lang.toml; a broken lang.toml names file and line', async () => {
    const home = mkdtempSync(join(tmpdir(), 'travsr-home-'));
    const env = { TRAVSR_HOME: home };
    const granted = await travsr(['lang', 'allow-unsandboxed', 'java'], { env });
    expect(granted.code).toBe(0);
    expect(granted.stdout).toMatch(/java: plugins may run UNSANDBOXED/);
    expect(readFileSync(join(home, 'lang.toml'), 'utf8')).toMatch(/\[languages\.java\]\s+allow_unsandboxed = true/);
    const revoked = await travsr(['lang', 'allow-unsandboxed', 'java', '--revoke'], { env });
    expect(revoked.code).toBe(0);
    expect(readFileSync(join(home, 'lang.toml'), 'utf8')).toMatch(/allow_unsandboxed = false/);

    writeFileSync(join(home, 'lang.toml'), '[languages.java\nallow_unsandboxed = true\n');
    const broken = await travsr(['lang', 'allow-unsandboxed', 'go'], { env });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/Error \[LANG_TOML_INVALID\]: .*lang\.toml:1:\d+: /);
  });
});
