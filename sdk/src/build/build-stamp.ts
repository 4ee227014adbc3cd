import { createHash, type Hash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';

/** What a build step reads and writes, for {@link buildIfChanged}. */
export interface BuildStep {
  /** Names the step in messages and its stamp's file name (`lang-go`, `cli bundle`). */
  name: string;
  /** Where the step runs: the stamp is kept in the `node_modules/.cache` found from here upward. */
  root: string;
  /** Files and directories the outputs are made from (directories are read whole, recursively). */
  inputs: readonly string[];
  /** Files and directories the step writes; one missing or changed since the stamp runs the step again. */
  outputs: readonly string[];
  /** Paths inside `inputs` not to read (a plugin's own `dist/`, inside its root). */
  skip?: readonly string[];
}

/** Set to `1` to run every build step whatever its stamp says. */
export const FORCE_BUILD_ENV = 'TRAVSR_BUILD_FORCE';

/**
 * Runs `build` unless the step's inputs and outputs are what they were when it last ran: the
 * digest of every input file's path and bytes, and of every output's, kept in a stamp under
 * `node_modules/.cache/travsr-build/`. The stamp is written only after `build` succeeded, so
 * an interrupted or failed build runs again. Returns whether it ran.
 *
 * The inputs must name everything the outputs depend on; {@link pluginBuildStep} does that for
 * a plugin. `TRAVSR_BUILD_FORCE=1` runs every step.
 */
export async function buildIfChanged(step: BuildStep, build: () => unknown): Promise<boolean> {
  const stampFile = stampPath(step);
  const skip = new Set((step.skip ?? []).map((p) => resolve(p)));
  const inputs = treeDigest(step.inputs, skip);
  if (process.env[FORCE_BUILD_ENV] !== '1' && existsSync(stampFile)) {
    const stamp = readStamp(stampFile);
    if (stamp?.inputs === inputs && stamp.outputs === treeDigest(step.outputs)) {
      console.log(`${step.name}: up to date (inputs unchanged since the last build; ${FORCE_BUILD_ENV}=1 builds anyway)`);
      return false;
    }
  }
  await build();
  mkdirSync(dirname(stampFile), { recursive: true });
  writeFileSync(stampFile, `${JSON.stringify({ inputs, outputs: treeDigest(step.outputs) })}\n`);
  return true;
}

/**
 * The build step of the plugin at `root`: its inputs are the plugin's own files (not `dist/`
 * or `node_modules/`), the built files of the workspace packages it depends on (`@travsr/sdk`'s
 * `dist/` in this repository) and the lockfiles that pin every installed dependency; its
 * output is `dist/`.
 */
export function pluginBuildStep(root: string): BuildStep {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name?: string };
  return {
    name: manifest.name ?? basename(root),
    root,
    inputs: [root, ...lockfiles(root), ...workspaceDependencyInputs(root)],
    outputs: [join(root, 'dist')],
    skip: [join(root, 'dist')],
  };
}

/**
 * The built files of the packages at `root`'s dependencies that are not installed but linked
 * to a directory of the workspace: each one's `package.json` and `dist/` (or the whole
 * directory when it has no `dist/`). Installed dependencies are pinned by {@link lockfiles}.
 */
export function workspaceDependencyInputs(root: string): string[] {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
  const deps = { ...(manifest.dependencies as object), ...(manifest.devDependencies as object) };
  const inputs: string[] = [];
  for (const name of Object.keys(deps)) {
    const dir = linkedPackage(root, name);
    if (dir) inputs.push(join(dir, 'package.json'), existsSync(join(dir, 'dist')) ? join(dir, 'dist') : dir);
  }
  return inputs;
}

/** A dependency that `node_modules` links to a directory outside any `node_modules` (a workspace package), or undefined. */
function linkedPackage(root: string, name: string): string | undefined {
  for (let dir = resolve(root); ; dir = dirname(dir)) {
    const installed = join(dir, 'node_modules', name);
    if (existsSync(installed)) {
      const real = realpathSync(installed);
      return real.split(sep).includes('node_modules') ? undefined : real;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** The lockfiles from `root` upward to the first one found: the project's, and npm's record of the installed tree. */
export function lockfiles(root: string): string[] {
  for (let dir = resolve(root); ; dir = dirname(dir)) {
    const lock = join(dir, 'package-lock.json');
    if (existsSync(lock)) return [lock, join(dir, 'node_modules', '.package-lock.json')].filter((f) => existsSync(f));
    if (dirname(dir) === dir) return [];
  }
}

function stampPath(step: BuildStep): string {
  let dir = resolve(step.root);
  while (!existsSync(join(dir, 'node_modules')) && dirname(dir) !== dir) dir = dirname(dir);
  const id = createHash('sha256').update(resolve(step.root)).update('\0').update(step.name).digest('hex').slice(0, 12);
  const label = step.name.replace(/[^\w.-]+/g, '-');
  return join(dir, 'node_modules', '.cache', 'travsr-build', `${label}-${id}.json`);
}

function readStamp(file: string): { inputs?: string; outputs?: string } | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as { inputs?: string; outputs?: string };
  } catch {
    return undefined; // unreadable: build again, which rewrites it
  }
}

/** sha256 over each file's path and bytes, in a fixed order; a missing path counts as such. */
export function treeDigest(paths: readonly string[], skip: ReadonlySet<string> = new Set()): string {
  const hash = createHash('sha256');
  for (const p of [...paths].map((x) => resolve(x)).sort()) {
    hash.update(`${p}\0`);
    addPath(hash, p, p, skip);
  }
  return hash.digest('hex');
}

function addPath(hash: Hash, base: string, path: string, skip: ReadonlySet<string>): void {
  if (skip.has(path)) return;
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) {
    hash.update(`missing ${relative(base, path)}\0`);
  } else if (st.isDirectory()) {
    if (basename(path) === 'node_modules' || basename(path) === '.git') return;
    for (const name of readdirSync(path).sort()) addPath(hash, base, join(path, name), skip);
  } else if (st.isFile()) {
    hash.update(`file ${relative(base, path)} ${st.size}\0`);
    hash.update(readFileSync(path));
  }
}
