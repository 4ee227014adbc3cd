import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Options of {@link projectDirs}. */
export interface ProjectDirsOptions {
  /**
   * `outermost` (default): a project directory inside another is left out — the outer build
   * (a Maven reactor, a Gradle or sbt build, a Cargo workspace) indexes it. `every`: each one is
   * indexed on its own (Go modules, Dart packages).
   */
  readonly nesting?: 'outermost' | 'every';
  /** Directory names never entered (besides dot directories). Default: node_modules, vendor, testdata, build output. */
  readonly skip?: readonly string[];
  /** How deep to look, in directories below the root. Default 8. */
  readonly maxDepth?: number;
}

const DEFAULT_SKIP = ['node_modules', 'vendor', 'testdata', 'target', 'build', 'out', 'dist', 'Pods', 'DerivedData'];

/**
 * The repository directories that hold a project's build file — the places an external indexer
 * runs — as `/`-separated paths relative to `root` (`''` for the root itself), sorted.
 * A marker is an exact name of a file or directory (`go.mod`, `pom.xml`, `sorbet`) or a `*.ext`
 * pattern (`*.csproj`).
 *
 * @example
 * ```ts
 * await projectDirs('/repo', ['go.mod'], { nesting: 'every' }); // ['', 'tools']
 * await projectDirs('/repo', ['pom.xml', 'build.gradle', 'build.gradle.kts']); // ['']
 * ```
 */
export async function projectDirs(root: string, markers: readonly string[], options: ProjectDirsOptions = {}): Promise<string[]> {
  const exact = new Set(markers.filter((m) => !m.startsWith('*.')));
  const suffixes = markers.filter((m) => m.startsWith('*.')).map((m) => m.slice(1));
  const skip = new Set(options.skip ?? DEFAULT_SKIP);
  const maxDepth = options.maxDepth ?? 8;
  const outermost = (options.nesting ?? 'outermost') === 'outermost';
  const found: string[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    let entries;
    try {
      entries = await readdir(join(root, dir), { withFileTypes: true });
    } catch {
      return;
    }
    const isProject = entries.some((e) => exact.has(e.name) || suffixes.some((s) => e.name.endsWith(s)));
    if (isProject) {
      found.push(dir);
      if (outermost) return;
    }
    if (depth >= maxDepth) return;
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (!e.isDirectory() || e.name.startsWith('.') || skip.has(e.name)) continue;
      await walk(dir ? `${dir}/${e.name}` : e.name, depth + 1);
    }
  };
  await walk('', 0);
  return found.sort();
}
