// The npm package as a user gets it: the tarball `npm run build` packs (release/, see
// host/scripts/pack-release.mjs) installed with `npm i -g` into an empty prefix, then used on a
// fixture repository by its own `travsr` binary — inside bwrap with this checkout hidden under an
// empty tmpfs and no network, so nothing can come from the source tree or the internet:
// `init` (first-party plugins installed from the package's built-in registry), `ask`, an MCP
// `tools/list` over stdio, `lang install` of another language, `plugin new` against the SDK's
// registry version, and the advice when better-sqlite3's native module is missing.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execa, execaSync } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedderDir, embedderWeights } from '@travsr/plugin-model-onnx/testing';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const version = (JSON.parse(readFileSync(join(repoRoot, 'host', 'package.json'), 'utf8')) as { version: string }).version;
const tarball = join(repoRoot, 'release', `travsr-${version}.tgz`);

/** Each step waits on real processes (sandboxed plugins, npm); on a loaded machine they take a while. */
const TEST_TIMEOUT_MS = 300_000;

let work: string;
let prefix: string;
let repo: string;
let home: string;
let installed: string;
/** The environment npm ran the install with. */
let npmEnv: Record<string, string>;

/** The environment of a user's shell: the prefix's bin first, a home of its own, nothing of npm's or this test run's. */
function userEnv(): Record<string, string> {
  return {
    PATH: `${join(prefix, 'bin')}:/usr/local/bin:/usr/bin:/bin`,
    HOME: home,
    TRAVSR_HOME: join(home, '.travsr'),
    LANG: 'C.UTF-8',
  };
}

/** `command` inside bwrap: the whole file system but this checkout (an empty tmpfs over it), and no network. */
function sealed(command: string[]): [string, string[]] {
  return ['bwrap', ['--dev-bind', '/', '/', '--tmpfs', repoRoot, '--unshare-net', '--die-with-parent', '--chdir', repo, '--', ...command]];
}

async function run(args: string[], opts: { reject?: boolean } = {}) {
  const [file, argv] = sealed([join(prefix, 'bin', 'travsr'), ...args]);
  const r = await execa(file, argv, { cwd: repo, env: userEnv(), extendEnv: false, reject: false, stdin: 'ignore', timeout: 180_000 });
  if (opts.reject !== false && r.exitCode !== 0)
    throw new Error(`travsr ${args.join(' ')} exited ${r.exitCode}:\n${r.stdout}\n${r.stderr}`);
  return r;
}

beforeAll(async () => {
  if (!existsSync(tarball)) throw new Error(`${tarball} is missing: \`npm run build\` packs it (host/scripts/pack-release.mjs)`);
  work = mkdtempSync(join(tmpdir(), 'travsr-npm-install-'));
  prefix = join(work, 'prefix');
  home = join(work, 'home');
  repo = join(work, 'repo');
  for (const d of [prefix, home, repo]) mkdirSync(d, { recursive: true });
  // npm as a user runs it, from outside the checkout and without the variables `npm test` sets
  // (npm_config_prefix and the like would send the install elsewhere). Packages come from npm's
  // cache where it has them; better-sqlite3's native module from a prebuilt binary, as a user's
  // machine downloads it (see localPrebuilds), or else node-gyp builds it with both cores.
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? home,
    JOBS: 'max',
    ...networkEnv(),
    ...(await localPrebuilds(join(work, 'prebuilds'))),
  };
  // `--prefix` also moves npm's global config file (it is read from <prefix>/etc/npmrc): the
  // machine's own (a `cafile` for a TLS-inspecting proxy, a registry mirror) is named explicitly.
  const globalConfig = (await execa('npm', ['config', 'get', 'globalconfig'], { cwd: work })).stdout.trim();
  const r = await execa(
    'npm',
    [
      'install',
      '--global',
      '--prefix',
      prefix,
      '--globalconfig',
      globalConfig,
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--allow-scripts=better-sqlite3',
      tarball,
    ],
    { cwd: work, env, extendEnv: false, reject: false, timeout: 900_000 },
  );
  if (r.exitCode !== 0) throw new Error(`npm install -g ${tarball} failed (${r.exitCode}):\n${r.stdout}\n${r.stderr}`);
  installed = join(prefix, 'lib', 'node_modules', 'travsr');
  npmEnv = env;

  writeFileSync(
    join(repo, 'math.ts'),
    'export function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport function twice(x: number): number {\n  return add(x, x);\n}\n',
  );
  writeFileSync(join(repo, 'main.ts'), "import { twice } from './math';\n\nexport function main(): number {\n  return twice(21);\n}\n");
  writeFileSync(join(repo, 'script.lua'), 'local function greet(name)\n  return "hello " .. name\nend\n\nprint(greet("lua"))\n');
  const git = (args: string[]) => execa('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: repo });
  await git(['init', '-q']);
  await git(['add', '.']);
  await git(['commit', '-qm', 'fixture']);
}, 960_000);

/** The machine's route to the registry, which a user's shell has too: proxies and extra CA certificates. */
function networkEnv(): Record<string, string> {
  const names = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];
  // vitest.config.ts keeps the machine's extra CA certificates from the other tests' processes.
  const extraCa = process.env.NODE_EXTRA_CA_CERTS ?? process.env.TRAVSR_TEST_EXTRA_CA_CERTS;
  return {
    ...Object.fromEntries(names.flatMap((n) => (process.env[n] ? [[n, process.env[n]]] : []))),
    ...(extraCa ? { NODE_EXTRA_CA_CERTS: extraCa } : {}),
  };
}

/**
 * better-sqlite3 installs with `prebuild-install || node-gyp rebuild`: on a user's machine the
 * first downloads the prebuilt native module of its release, for this Node ABI and platform. This
 * machine has no route to those downloads, so node-gyp would compile SQLite (some 70 CPU-seconds,
 * a tenth of the whole suite). Instead the test hands prebuild-install the module this checkout's
 * own install built, packed under the name prebuild-install looks for in a local prebuilds
 * directory (`npm_config_better_sqlite3_local_prebuilds`): the package then installs as it does
 * for a user who got the prebuilt binary. Where no such module exists (or the platform's name is
 * not one this knows), nothing is set and node-gyp compiles, as before.
 */
async function localPrebuilds(dir: string): Promise<Record<string, string>> {
  const sqliteDir = dirname(createRequire(join(repoRoot, 'host', 'package.json')).resolve('better-sqlite3/package.json'));
  const binding = join(sqliteDir, 'build', 'Release', 'better_sqlite3.node');
  const glibc =
    process.platform === 'linux' &&
    (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime;
  if (!existsSync(binding) || (process.platform === 'linux' && !glibc)) return {};
  const { version: sqliteVersion } = JSON.parse(readFileSync(join(sqliteDir, 'package.json'), 'utf8')) as { version: string };
  const name = `better-sqlite3-v${sqliteVersion}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  mkdirSync(dir, { recursive: true });
  await execa('tar', ['-czf', join(dir, name), '-C', sqliteDir, 'build/Release/better_sqlite3.node']);
  return { npm_config_better_sqlite3_local_prebuilds: dir };
}

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('npm i -g travsr (the packed tarball, into an empty prefix)', { timeout: TEST_TIMEOUT_MS }, () => {
  it('installs the CLI with runtime dependencies only, no path back into the checkout', () => {
    expect(existsSync(join(prefix, 'bin', 'travsr'))).toBe(true);
    const deps = readdirSync(join(installed, 'node_modules'));
    for (const dev of ['typescript', 'vitest', 'eslint', 'prettier', 'oidc-provider', 'playwright-core']) expect(deps).not.toContain(dev);
    expect(readdirSync(join(installed, 'node_modules', '@travsr')).sort()).toEqual(['protocol', 'registry', 'sdk']);
    // Every link npm made stays inside the prefix (bundled packages are copies, not workspace links).
    expect(execaSync('find', [prefix, '-type', 'l', '-lname', `${repoRoot}*`]).stdout).toBe('');
    expect(existsSync(join(installed, 'builtin-registry', 'SHA256SUMS'))).toBe(true);
    expect(existsSync(join(installed, 'sandbox-profiles', 'linux', 'bwrap.json'))).toBe(true);
  });

  it('installs a complete tree: nothing missing or empty, the native SQLite driver in place', async () => {
    // npm counts what a bundled package depends on as part of the bundle: an optional dependency
    // of one (msgpackr's native decoder) once left empty directories behind, detect-libc among
    // them, so better-sqlite3 could not fetch its prebuilt binary and compiled SQLite instead.
    const ls = await execa('npm', ['ls', '--global', '--all', '--prefix', prefix], { env: npmEnv, extendEnv: false, reject: false });
    expect(ls.stdout + ls.stderr).not.toMatch(/invalid|missing|ERR/);
    expect(ls.exitCode).toBe(0);
    for (const pkg of ['detect-libc', 'prebuild-install', 'msgpackr', 'msgpackr-extract'])
      expect(existsSync(join(installed, 'node_modules', pkg, 'package.json')), pkg).toBe(true);
    expect(existsSync(join(installed, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'))).toBe(true);
  });

  it('init installs the first-party plugins from the built-in registry, locks them and indexes', async () => {
    const r = await run(['init', '.', '--json']);
    const out = JSON.parse(r.stdout) as { languages: string[]; steps: string[]; summary: { analyzed: number; failed: number } };
    expect(out.languages).toEqual(expect.arrayContaining(['typescript', 'lua']));
    expect(out.steps).toEqual(expect.arrayContaining([expect.stringMatching(/^installed lang-typescript \S+ from the built-in registry/)]));
    expect(out.summary.failed).toBe(0);
    expect(out.summary.analyzed).toBe(3);
    const lock = readFileSync(join(repo, '.travsr', 'plugins.lock'), 'utf8');
    expect(lock).toMatch(/\[plugins\.lang-typescript\][^[]*registry = "builtin"/);
    expect(existsSync(join(home, '.travsr', 'plugins', 'lang-typescript'))).toBe(true);
  });

  it('ask answers from the graph, and graph callers finds the caller', async () => {
    const r = await run(['ask', 'where is add called from', '--json']);
    const answer = JSON.parse(r.stdout) as { functions?: { path: string; qualified_name: string }[] };
    expect(r.stdout).toContain('math.ts');
    expect((answer.functions ?? []).map((f) => f.qualified_name)).toContain('add');
    const callers = await run(['graph', 'callers', 'add', '--json']);
    expect(callers.stdout).toContain('twice');
  });

  it('mcp serves the tools over stdio', async () => {
    const [command, args] = sealed([join(prefix, 'bin', 'travsr'), 'mcp']);
    const client = new Client({ name: 'npm-install-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command, args, cwd: repo, env: userEnv(), stderr: 'pipe' }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['get_context', 'get_callers', 'get_definition', 'search_symbols']));
    } finally {
      await client.close();
    }
  });

  it('lang install works offline from the built-in registry', async () => {
    await run(['lang', 'remove', 'lang-data'], { reject: false });
    const r = await run(['lang', 'install', 'json', '--json']);
    const out = JSON.parse(r.stdout) as { installed: { id: string; registry: string }[] };
    expect(out.installed).toEqual([expect.objectContaining({ id: 'lang-data', registry: 'builtin' })]);
  });

  it('model add serves a model directory with the runner the package carries, and embed embeds with it', async () => {
    const added = await run(['model', 'add', embedderDir(embedderWeights(8), { max_tokens: 64 }), '--json']);
    const model = JSON.parse(added.stdout) as { dir: string; madeFrom?: string };
    expect(model.madeFrom).toBeDefined();
    expect(existsSync(join(model.dir, 'runner', 'ort-wasm-simd-threaded.wasm'))).toBe(true);
    const embed = await run(['embed', '--json']);
    const summary = JSON.parse(embed.stdout) as { definitions: number; embedded: number };
    expect(summary.definitions).toBeGreaterThan(0);
    expect(summary.embedded).toBe(summary.definitions);
    await run(['model', 'remove', 'embed']);
  });

  it('plugin new scaffolds against the registry version of @travsr/sdk', async () => {
    await run(['plugin', 'new', join(work, 'lang-mylang'), '--language', 'mylang', '--extension', '.my']);
    const pkg = JSON.parse(readFileSync(join(work, 'lang-mylang', 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    const sdk = JSON.parse(readFileSync(join(installed, 'node_modules', '@travsr', 'sdk', 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(pkg.devDependencies['@travsr/sdk']).toBe(`^${sdk.version}`);
    expect(existsSync(join(work, 'lang-mylang', 'dist', 'main.js'))).toBe(true);
  });

  it('says what to do when the SQLite driver has no native module', async () => {
    const binding = join(installed, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
    renameSync(binding, `${binding}.aside`);
    try {
      const r = await run(['ask', 'add'], { reject: false });
      expect(r.exitCode).not.toBe(0);
      expect(r.stderr).toContain('SQLITE_NATIVE_UNAVAILABLE');
      expect(r.stderr).toContain('--allow-scripts=better-sqlite3');
    } finally {
      renameSync(`${binding}.aside`, binding);
    }
  });
});
