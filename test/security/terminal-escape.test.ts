// Finding 9 of issue 12: plugin output (stderr, `log` notifications, failure diagnostics,
// node names), file names and repository content carry terminal escape sequences; what
// `travsr index` and `travsr ask` print must not contain a raw ESC, BEL, C1 or bidi control.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pluginBundleOptions } from '@travsr/sdk/build';
import { GitRepo } from '../helpers/git-repo.js';
import { travsr } from '../helpers/run-cli.js';

const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const SHOWN = '␛[2J␛]0;pwned␇\\u202e';

let pluginRoot: string;
let repo: GitRepo;
let env: Record<string, string>;

/** The first raw control character in `text`, described, for a readable failure. */
const firstRaw = (text: string) => {
  const m = RAW_CONTROL.exec(text);
  return m
    ? `U+${m[0].charCodeAt(0).toString(16).padStart(4, '0')} at …${JSON.stringify(text.slice(Math.max(0, m.index - 40), m.index + 20))}…`
    : null;
};

beforeAll(async () => {
  pluginRoot = mkdtempSync(join(tmpdir(), 'travsr-escape-plugin-'));
  const dir = join(pluginRoot, 'escape-text');
  mkdirSync(dir);
  await build(
    pluginBundleOptions(fileURLToPath(new URL('../fixtures/plugins/escape-text.ts', import.meta.url)), join(pluginRoot, 'main.js'), {
      logLevel: 'silent',
    }),
  );
  copyFileSync(join(pluginRoot, 'main.js'), join(dir, 'main.js'));
  writeFileSync(
    join(dir, 'travsr-plugin.json'),
    JSON.stringify({
      id: 'escape-text',
      version: '1.0.0',
      languages: ['text'],
      extensions: ['.txt'],
      entrypoint: { runtime: 'node', path: 'main.js' },
      protocolVersions: ['1'],
      constraints: { network: false, ipc: 'none', hostApi: false },
    }),
  );
  env = { TRAVSR_PLUGINS_DIRS: dir, TRAVSR_LOG_LEVEL: 'info' };
  repo = new GitRepo('travsr-escape-');
  repo.write({
    // Repository content with the sequences, shown by `ask` as a snippet.
    'notes.txt': 'escapeFn says \x1b[2J\x1b]0;pwned\x07\u202e hello\nsecond line\n',
    // File names with them (possible on Linux, and in git).
    'evil\x1b]0;title\x07.txt': 'evilFn here\nmore\n',
    'fail\x1b[2J.txt': 'failing\n',
  });
  repo.commit('escapes');
  const init = await travsr(['init', repo.root, '--no-hook'], { env });
  expect(init.code, init.stderr).toBe(0);
}, 180_000);

afterAll(() => {
  repo?.dispose();
  if (pluginRoot) rmSync(pluginRoot, { recursive: true, force: true });
});

describe('finding 9: Terminal escape injection', () => {
  it('`travsr index` shows plugin stderr, log lines, diagnostics and file names with the escapes made visible', async () => {
    const r = await travsr(['index', repo.root, '--rebuild'], { env });
    expect(r.code, r.stderr).toBe(0);
    const out = `${r.stdout}\n${r.stderr}`;
    // Everything the plugin sent was printed, visibly…
    expect(out).toContain(`ESCAPE-STDERR ${SHOWN} analyzing`);
    expect(out).toContain(`ESCAPE-LOG ${SHOWN}`);
    expect(out).toContain(`ESCAPE-DIAG ${SHOWN} cannot parse`);
    expect(out).toContain('fail␛[2J.txt');
    // …and nothing raw reached the terminal.
    expect(firstRaw(out)).toBeNull();
  });

  it('`travsr ask` shows repository content, names and file names with the escapes made visible', async () => {
    const r = await travsr(['ask', 'escapeFn evilFn', '--repo', repo.root], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`escapeFn says ${SHOWN} hello`);
    expect(r.stdout).toContain(`function escapeFn${SHOWN}`);
    expect(r.stdout).toContain('evil␛]0;title␇.txt');
    expect(firstRaw(`${r.stdout}\n${r.stderr}`)).toBeNull();
  });

  it('`travsr ask --json` is JSON-escaped: the sequences survive as \\u escapes, never raw', async () => {
    const r = await travsr(['ask', 'escapeFn evilFn', '--repo', repo.root, '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(firstRaw(r.stdout)).toBeNull();
    expect(r.stdout).toContain('\\u001b');
    // Lossless: the values parse back to exactly what the plugin and the file system gave.
    const parsed = JSON.parse(r.stdout) as { nodes: { path: string; qualified_name: string | null }[] };
    expect(parsed.nodes.map((n) => n.path)).toContain('evil\x1b]0;title\x07.txt');
    expect(parsed.nodes.map((n) => n.qualified_name)).toContain('escapeFn\x1b[2J\x1b]0;pwned\x07\u202e');
  });

  it('an error that quotes a file name shows it visibly', async () => {
    const r = await travsr(['ask', 'anything', '--repo', join(repo.root, 'fail\x1b[2J.txt')], { env });
    expect(r.code).not.toBe(0);
    expect(firstRaw(`${r.stdout}\n${r.stderr}`)).toBeNull();
  });
});
