// Inputs of the TypeScript benchmarks, fetched at bench time into test/bench/.cache/ (ignored
// by git, never committed): scip-typescript installed from npm, and the published sources of
// zod@3 and effect@3 (`npm pack`). Also: a spawn that measures wall time and peak RSS.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchDir, log, tempDir } from './common.js';

export const cacheDir = join(benchDir, '.cache');
const toolsDir = join(cacheDir, 'tools');
const corporaDir = join(cacheDir, 'corpora');

/** The version of scip-typescript the comparison runs (pinned so runs compare). */
export const SCIP_TYPESCRIPT = '@sourcegraph/scip-typescript@0.4.0';

function npm(args, opts = {}) {
  return execFileSync('npm', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000, ...opts });
}

/** Path of scip-typescript's entry point, installed on first use with `npm install --prefix`. */
export function scipTypescript() {
  const pkgDir = join(toolsDir, 'node_modules', '@sourcegraph', 'scip-typescript');
  const main = join(pkgDir, 'dist', 'src', 'main.js');
  if (!existsSync(main)) {
    log(`installing ${SCIP_TYPESCRIPT} into ${toolsDir}…`);
    mkdirSync(toolsDir, { recursive: true });
    npm(['install', '--prefix', toolsDir, '--no-audit', '--no-fund', '--ignore-scripts', SCIP_TYPESCRIPT]);
  }
  const version = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).version;
  return { main, version, scipModule: join(pkgDir, 'dist', 'src', 'scip.js') };
}

/**
 * The extracted package of `spec` (e.g. `zod@3`): `npm pack` into the cache on first use, then
 * reused (offline runs work once it is there). Returns `{ name, version, dir }` (`dir` holds package.json).
 */
export function packedPackage(spec) {
  mkdirSync(corporaDir, { recursive: true });
  const name = spec.slice(0, spec.lastIndexOf('@'));
  const cached = readdirSync(corporaDir).filter(
    (f) => f.startsWith(`${name}-`) && existsSync(join(corporaDir, f, 'package', 'package.json')),
  );
  let tgz;
  try {
    const out = JSON.parse(npm(['pack', spec, '--json', '--pack-destination', corporaDir]));
    tgz = out[0]?.filename;
  } catch (e) {
    if (cached.length === 0)
      throw new Error(`cannot fetch ${spec} with npm pack (${e.message.split('\n')[0]}) and nothing is cached in ${corporaDir}`);
    log(`npm pack ${spec} failed; using the cached ${cached.sort().at(-1)}`);
  }
  const dirName = tgz ? tgz.replace(/\.tgz$/, '') : cached.sort().at(-1);
  const dir = join(corporaDir, dirName);
  if (!existsSync(join(dir, 'package', 'package.json'))) {
    mkdirSync(dir, { recursive: true });
    execFileSync('tar', ['xzf', join(corporaDir, tgz), '-C', dir]);
  }
  const version = JSON.parse(readFileSync(join(dir, 'package', 'package.json'), 'utf8')).version;
  return { name, version, dir: join(dir, 'package') };
}

/** Counts files and lines of the TypeScript sources below `dir`. */
export function sourceStats(dir) {
  let files = 0;
  let lines = 0;
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|tsx|mts|cts)$/.test(e.name)) {
        files++;
        lines += readFileSync(p, 'utf8').split('\n').length;
      }
    }
  };
  walk(dir);
  return { files, lines };
}

/**
 * `paths` that send the package's own name (`zod/v4`, as its tests import it) to its
 * sources, from the `exports` of its package.json: `./v4` → `src/v4/index.ts` (or `src/v4.ts`).
 */
function selfPaths(pkg) {
  const manifest = JSON.parse(readFileSync(join(pkg.dir, 'package.json'), 'utf8'));
  const paths = {};
  for (const key of Object.keys(manifest.exports ?? {})) {
    if (key.includes('*') || !key.startsWith('.')) continue;
    const sub = key === '.' ? '' : key.slice(2);
    const candidates = sub === '' ? ['src/index.ts'] : [`src/${sub}/index.ts`, `src/${sub}.ts`];
    const found = candidates.find((c) => existsSync(join(pkg.dir, c)));
    if (found) paths[sub === '' ? manifest.name : `${manifest.name}/${sub}`] = [found];
  }
  return paths;
}

/**
 * A fresh git repository holding the package's `src/` and one tsconfig.json, which both
 * indexers read: the published packages ship no tsconfig, so the same options are written
 * for both (strict, bundler resolution, ES2022 + DOM libraries, and `paths` for the
 * package's own name so that its tests resolve to its sources).
 */
export function corpusRepo(pkg, prefix) {
  const root = tempDir(prefix);
  cpSync(join(pkg.dir, 'src'), join(root, 'src'), { recursive: true });
  const paths = selfPaths(pkg);
  writeFileSync(
    join(root, 'tsconfig.json'),
    `${JSON.stringify(
      {
        compilerOptions: {
          strict: true,
          target: 'ES2022',
          lib: ['ES2022', 'DOM'],
          module: 'ESNext',
          moduleResolution: 'Bundler',
          noEmit: true,
          skipLibCheck: true,
          ...(Object.keys(paths).length > 0 ? { baseUrl: '.', paths } : {}),
        },
        include: ['src'],
      },
      null,
      2,
    )}\n`,
  );
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 'bench',
    GIT_AUTHOR_EMAIL: 'bench@example.org',
    GIT_COMMITTER_NAME: 'bench',
    GIT_COMMITTER_EMAIL: 'bench@example.org',
  };
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root, env });
  execFileSync('git', ['add', '-A'], { cwd: root, env });
  execFileSync('git', ['commit', '-q', '-m', `${pkg.name}@${pkg.version} src`], { cwd: root, env });
  return root;
}

function vmHwmKiB(pid) {
  try {
    const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

let clockTicks;
/** CPU time (user + system, all threads) of a process in ms, or undefined when it is gone. */
function cpuMs(pid) {
  try {
    clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / clockTicks;
  } catch {
    return undefined;
  }
}

/**
 * Runs a command to the end; resolves `{ code, stdout, stderr, wallMs, peakKiB, cpuMs }`
 * (peak RSS and CPU time sampled every 20 ms, so CPU time may be one interval short).
 */
export function runMeasured(cmd, args, { cwd, env = process.env, timeoutMs = 900_000 } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    let peak;
    let cpu;
    const poll = setInterval(() => {
      const k = vmHwmKiB(child.pid);
      if (k !== undefined) peak = Math.max(peak ?? 0, k);
      cpu = cpuMs(child.pid) ?? cpu;
    }, 20);
    const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    let wallMs;
    child.on('exit', () => {
      wallMs = performance.now() - t0;
      clearInterval(poll);
      clearTimeout(killer);
    });
    child.on('error', (e) => {
      clearInterval(poll);
      clearTimeout(killer);
      reject(e);
    });
    child.on('close', (code) => resolve({ code, stdout, stderr, wallMs, peakKiB: peak, cpuMs: cpu }));
  });
}
