// Finding 2 of issue 12, through the real CLI: a cloned repository commits `.travsr/config.toml`
// with security keys (its own signed registry, a plugin directory it ships, a wider sandbox
// tier). Until the user runs `travsr trust` there, those keys are ignored and named in a
// warning; after it they count for this repository only; editing the file revokes the trust.
// Nothing a repository says ever reaches the user's ~/.travsr/lang.toml.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packPlugin } from '@travsr/registry';
import { execa } from 'execa';
import { parse } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMisbehavePlugins } from '../helpers/fixture-plugins.js';
import { travsr } from '../helpers/run-cli.js';

const EXAMPLE_LUA = resolve(fileURLToPath(import.meta.url), '../../../plugins/example-lua');
/** The version the attacker publishes in the registry the repository ships. */
const EVIL_VERSION = '6.6.6';

interface LangTomlDoc {
  languages?: Record<string, { plugin?: string }>;
  plugins?: Record<string, { version: string; dir: string; tier: string }>;
}

let work: string;
let evilArtifact: string;
let evilPlugin: string;

/** A fresh scratch HOME and TRAVSR_HOME, and a git repository, as in the reproductions. */
async function scratch(name: string) {
  const base = join(work, name);
  const home = join(base, 'home');
  const travsrHome = join(home, '.travsr');
  const repo = join(base, 'repo');
  mkdirSync(travsrHome, { recursive: true });
  mkdirSync(join(repo, '.travsr'), { recursive: true });
  await execa('git', ['init', '-q', repo]);
  const env = { HOME: home, TRAVSR_HOME: travsrHome };
  const run = (args: string[]) => travsr(args, { cwd: repo, env });
  const langToml = (): LangTomlDoc => {
    const file = join(travsrHome, 'lang.toml');
    return existsSync(file) ? parse(readFileSync(file, 'utf8')) : {};
  };
  const configFile = join(repo, '.travsr', 'config.toml');
  return { base, home, travsrHome, repo, env, run, langToml, configFile };
}

/** What the attacker commits: a registry directory signed with its own key, and a config that points at both. */
async function plantRegistry(s: Awaited<ReturnType<typeof scratch>>): Promise<void> {
  const keygen = await travsr(['registry', 'keygen', join(s.base, 'attacker', 'evil.key')], { cwd: s.base, env: s.env });
  expect(keygen.code, keygen.stderr).toBe(0);
  cpSync(join(s.base, 'attacker', 'evil.key.pub'), join(s.repo, '.travsr', 'evil.pub'));
  const publish = await travsr(
    ['registry', 'publish', evilArtifact, '--registry', join(s.repo, '.travsr', 'registry'), '--key', join(s.base, 'attacker', 'evil.key')],
    { cwd: s.base, env: s.env },
  );
  expect(publish.code, publish.stderr).toBe(0);
  writeFileSync(s.configFile, '[index]\nworkers = 1\n\n[registry]\nurl = "registry"\ntrustedKeys = ["evil.pub"]\n');
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'travsr-repo-trust-'));
  // The attacker's plugin: example-lua republished at a version the real registry never had.
  const copy = join(work, 'evil-lua');
  cpSync(EXAMPLE_LUA, copy, { recursive: true, filter: (src) => !src.includes('node_modules') });
  const manifest = join(copy, 'travsr-plugin.json');
  writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('"version": "0.1.0"', `"version": "${EVIL_VERSION}"`));
  evilArtifact = (await packPlugin(copy, join(work, 'out'))).file;
  evilPlugin = (await buildMisbehavePlugins(['ok'])).dir('ok');
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

// Each test spawns the CLI five to eight times, some of them indexing: generous on a busy 2-core box.
const SLOW = { timeout: 300_000 };

describe("finding 2: A cloned repository's `.travsr/config.toml` widens trust", () => {
  it(
    'registry.url + trustedKeys of a registry the repository ships and signs: ignored until `travsr trust`, never written to lang.toml, revoked by an edit',
    SLOW,
    async () => {
      const s = await scratch('registry');
      await plantRegistry(s);

      const untrusted = await s.run(['lang', 'install', 'lua']);
      expect(untrusted.code, untrusted.stderr).toBe(0);
      // The user's own registry (here the built-in one) served the install, not the repository's.
      expect(untrusted.stdout).toContain('installed example-lua@0.1.0 from the built-in registry');
      expect(existsSync(join(s.travsrHome, 'plugins', 'example-lua', EVIL_VERSION))).toBe(false);
      expect(s.langToml().plugins?.['example-lua']?.version).toBe('0.1.0');
      expect(untrusted.stderr).toMatch(new RegExp(`${escape(s.configFile)}:5: registry\\.url is ignored: .*run \`travsr trust\``));
      expect(untrusted.stderr).toMatch(new RegExp(`${escape(s.configFile)}:6: registry\\.trustedKeys is ignored`));
      const langTomlBefore = readFileSync(join(s.travsrHome, 'lang.toml'), 'utf8');

      // `travsr trust` names what it is about to enable, then records it.
      const trust = await s.run(['trust', '--json']);
      expect(trust.code, trust.stderr).toBe(0);
      const trusted = JSON.parse(trust.stdout) as {
        root: string;
        file: string;
        sha256: string;
        securityKeys: { key: string; origin: string }[];
      };
      expect(trusted.securityKeys.map((k) => k.key)).toEqual(['registry.url', 'registry.trustedKeys']);
      expect(trusted.securityKeys[0]?.origin).toBe(`${s.configFile}:5`);

      const honoured = await s.run(['lang', 'install', `example-lua@${EVIL_VERSION}`]);
      expect(honoured.code, honoured.stderr).toBe(0);
      expect(honoured.stdout).toContain(`installed example-lua@${EVIL_VERSION} from registry`);
      expect(honoured.stderr).not.toContain('is ignored');
      // Repository-scoped: the lock of this repository has it; the user's lang.toml is untouched.
      expect(readFileSync(join(s.repo, '.travsr', 'plugins.lock'), 'utf8')).toContain(`version = "${EVIL_VERSION}"`);
      expect(readFileSync(join(s.travsrHome, 'lang.toml'), 'utf8')).toBe(langTomlBefore);

      // Any change to the file (a pull, a teammate's commit) revokes the trust.
      appendFileSync(s.configFile, '# harmless-looking edit\n');
      const revoked = await s.run(['lang', 'install', 'lua']);
      expect(revoked.stderr).toMatch(/registry\.url is ignored: .*changed since you trusted it.*run `travsr trust`/);
      const list = await s.run(['trust', '--list', '--json']);
      expect(JSON.parse(list.stdout)).toMatchObject({ repositories: [{ root: s.repo, state: 'changed' }] });
    },
  );

  it('plugins.dirs naming a plugin the repository ships: not run by `travsr init` until `travsr trust`', SLOW, async () => {
    const s = await scratch('plugins-dirs');
    cpSync(evilPlugin, join(s.repo, 'tools', 'plugin'), { recursive: true });
    writeFileSync(join(s.repo, 'notes.txt'), 'hello\n');
    writeFileSync(s.configFile, '[plugins]\ndirs = ["tools/plugin"]\n');

    const init = await s.run(['init', '--no-hook', '--json']);
    expect(init.code, init.stderr).toBe(0);
    const out = JSON.parse(init.stdout) as { languages: string[]; summary: { plugins: { id: string }[] } };
    expect(out.languages).not.toContain('text');
    expect(JSON.stringify(out.summary)).not.toContain('misbehave');
    expect(init.stderr).toMatch(new RegExp(`${escape(s.configFile)}:2: plugins\\.dirs is ignored: .*run \`travsr trust\``));

    const listed = await s.run(['config', 'list', '--json']);
    const cfg = JSON.parse(listed.stdout) as { values: Record<string, { source: string }>; ignored: { key: string; origin: string }[] };
    expect(cfg.values['plugins.dirs']?.source).toBe('default');
    expect(cfg.ignored).toMatchObject([{ key: 'plugins.dirs', origin: `${s.configFile}:2` }]);
    const table = await s.run(['config', 'list']);
    expect(table.stdout).toMatch(/^plugins\.dirs \*\s+\[".*tools\/plugin"\]\s+ignored\s+.*config\.toml:2/m);

    expect((await s.run(['trust'])).code).toBe(0);
    const again = await s.run(['index', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('misbehave');
  });

  it('sandbox.tier = "elevated": `travsr init` registers the first-party plugins at the user\'s tier, trusted or not', SLOW, async () => {
    const s = await scratch('tier');
    writeFileSync(join(s.repo, 'main.lua'), 'local function f() return 1 end\n');
    writeFileSync(s.configFile, '[sandbox]\ntier = "elevated"\n');

    const init = await s.run(['init', '--no-hook', '--json']);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stderr).toMatch(new RegExp(`${escape(s.configFile)}:2: sandbox\\.tier is ignored: .*run \`travsr trust\``));
    const tiers = Object.values(s.langToml().plugins ?? {}).map((p) => p.tier);
    expect(tiers.length).toBeGreaterThan(0);
    expect(new Set(tiers)).toEqual(new Set(['standard']));

    // Trusted, the tier is this repository's business: still nothing of it in the user's lang.toml.
    expect((await s.run(['trust'])).code).toBe(0);
    rmSync(join(s.travsrHome, 'lang.toml'));
    const trusted = await s.run(['init', '--no-hook', '--json']);
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(trusted.stderr).not.toContain('is ignored');
    expect(new Set(Object.values(s.langToml().plugins ?? {}).map((p) => p.tier))).toEqual(new Set(['standard']));
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
