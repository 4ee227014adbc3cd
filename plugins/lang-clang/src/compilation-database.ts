import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { TravsrError } from '@travsr/sdk';

/** One entry of a JSON compilation database (clang's compile_commands.json). */
export interface CompileCommand {
  directory: string;
  file: string;
  command?: string;
  arguments?: string[];
  output?: string;
}

/** A compile_commands.json that cannot be used: unreadable, not a list of entries, or naming no file of the repository. */
export class CompilationDatabaseError extends TravsrError {
  readonly code = 'COMPILATION_DATABASE_INVALID';
  constructor(message: string) {
    super(message);
    this.name = 'CompilationDatabaseError';
  }
}

/** Where build systems put compile_commands.json, searched in this order below the root. */
const LIKELY = ['', 'build', 'out', 'builddir', '_build', 'cmake-build-debug', 'cmake-build-release', 'debug', 'release'];

/**
 * The repository's compilation database, as a path relative to `root`: compile_commands.json at
 * the root or in a usual build directory (build/, out/, builddir/, cmake-build-*), else the first
 * found by a walk three directories deep (dot directories and node_modules left out).
 */
export function findCompilationDatabase(root: string): string | undefined {
  for (const dir of LIKELY) if (existsSync(join(root, dir, 'compile_commands.json'))) return posix.join(dir, 'compile_commands.json');
  const walk = (dir: string, depth: number): string | undefined => {
    let names: string[];
    try {
      names = readdirSync(join(root, dir)).sort();
    } catch {
      return undefined;
    }
    if (names.includes('compile_commands.json') && dir !== '') return posix.join(dir, 'compile_commands.json');
    if (depth >= 3) return undefined;
    for (const name of names) {
      if (name.startsWith('.') || name === 'node_modules') continue;
      const sub = dir ? `${dir}/${name}` : name;
      let isDir = false;
      try {
        isDir = statSync(join(root, sub)).isDirectory();
      } catch {
        isDir = false;
      }
      if (!isDir) continue;
      const hit = walk(sub, depth + 1);
      if (hit) return hit;
    }
    return undefined;
  };
  return walk('', 0);
}

/**
 * The prefix the database's absolute paths have where it was generated (`/home/dev/shop`), found
 * from its entries: the longest tail of an entry's file path that names a file under `root`.
 * Undefined when the paths already point under `root`, or no entry names a file of it.
 */
export function hostPrefix(entries: readonly CompileCommand[], root: string): string | undefined {
  for (const e of entries) {
    const file = posix.isAbsolute(e.file) ? e.file : posix.join(e.directory, e.file);
    if (file.startsWith(`${root}/`) && existsSync(file)) return undefined;
    const parts = file.split('/').filter((p) => p !== '');
    for (let i = 0; i < parts.length; i++) {
      const tail = parts.slice(i).join('/');
      if (existsSync(join(root, tail))) return `/${parts.slice(0, i).join('/')}`.replace(/\/$/, '') || '/';
    }
  }
  return undefined;
}

/**
 * Writes the database at `from` to `to` with the paths it was generated with moved under `root`
 * (the sandbox shows the repository at another path than the machine that ran CMake or Bear):
 * `directory`, `file`, `output`, and every argument or command word that starts with the old
 * prefix (`-I/home/dev/shop/include` too). Returns how many entries it holds and the prefix replaced.
 * @throws CompilationDatabaseError when it cannot be read or names no file of the repository.
 */
export function rewriteCompilationDatabase(from: string, to: string, root: string): { entries: number; prefix: string | undefined } {
  let entries: CompileCommand[];
  try {
    entries = JSON.parse(readFileSync(from, 'utf8')) as CompileCommand[];
  } catch (e) {
    throw new CompilationDatabaseError(`${from} cannot be read as a compilation database: ${(e as Error).message}; generate it again`);
  }
  if (!Array.isArray(entries) || entries.some((e) => typeof e?.file !== 'string' || typeof e.directory !== 'string'))
    throw new CompilationDatabaseError(`${from} is not a list of {directory, file, command|arguments} entries; generate it again`);
  const prefix = hostPrefix(entries, root);
  const move = (s: string): string => {
    if (prefix === undefined || prefix === root) return s;
    return s.split(prefix).join(root);
  };
  const moved = entries.map((e) => ({
    ...e,
    directory: move(e.directory),
    file: move(e.file),
    ...(e.output !== undefined ? { output: move(e.output) } : {}),
    ...(e.command !== undefined ? { command: move(e.command) } : {}),
    ...(e.arguments !== undefined ? { arguments: e.arguments.map(move) } : {}),
  }));
  if (
    entries.length > 0 &&
    prefix === undefined &&
    !moved.some((e) => existsSync(posix.isAbsolute(e.file) ? e.file : posix.join(e.directory, e.file)))
  )
    throw new CompilationDatabaseError(
      `${from} names no file of the repository (its paths are from another checkout); generate it again here`,
    );
  writeFileSync(to, JSON.stringify(moved));
  return { entries: moved.length, prefix };
}

/** Directory names build systems write their output to, compile_commands.json among it. */
const BUILD_DIRS = /^(build|out|builddir|_build|debug|release|cmake-build-.*)$/;

/**
 * The project a compilation database belongs to, relative to the root: its directory, or the
 * parent of a build directory (`build/compile_commands.json` → the project holding build/).
 *
 * @example
 * ```ts
 * projectOfDatabase('engine/build/compile_commands.json'); // 'engine'
 * projectOfDatabase('compile_commands.json'); // ''
 * ```
 */
export function projectOfDatabase(path: string): string {
  const dir = posix.dirname(path) === '.' ? '' : posix.dirname(path);
  if (dir === '' || !BUILD_DIRS.test(posix.basename(dir))) return dir;
  const parent = posix.dirname(dir);
  return parent === '.' ? '' : parent;
}
