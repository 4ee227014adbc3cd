import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { nodeLaunchFlags, pluginMemoryMiB } from '@travsr/protocol/node';
import { pluginBundleOptions, type PluginBundleOptions } from './bundle-options.js';
import { writeCodeCaches } from './code-cache.js';

/** esbuild's `build`, passed in: the SDK does not depend on esbuild. */
export type EsbuildBuild = (options: PluginBundleOptions) => Promise<unknown>;

/**
 * File name, in `dist/`, of the build record: what the bundler put into each bundle (esbuild's
 * metafile, bytes per input) and which file each copied asset came from. `travsr plugin pack`
 * makes the plugin's SBOM from it.
 */
export const BUILD_RECORD_FILE = 'build-record.json';

/** The build record's shape (the same as `BuildRecord` of `@travsr/registry`). */
export interface PluginBuildRecord {
  bundler: { name: string; version: string };
  bundles: { output: string; inputs: Record<string, number> }[];
  assets: { file: string; source: string }[];
}

/** `p` relative to `root` (when absolute) with `/` separators, as a build record writes paths. */
function posixRelative(root: string, p: string): string {
  return (isAbsolute(p) ? relative(root, p) : p).split(sep).join('/');
}

/** The part of esbuild's metafile a build record keeps. */
export interface BundleMetafile {
  outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
}

/**
 * The bundles of a build record from esbuild's metafile: for each output, every input that put
 * bytes into it with that byte count, paths relative to `root` with `/` (the build's
 * `absWorkingDir`: esbuild writes metafile paths relative to it).
 *
 * @example
 * ```js
 * const result = await build({ ...options, metafile: true, absWorkingDir: root });
 * const record = { bundler: { name: 'esbuild', version }, bundles: bundlesOfMetafile(result.metafile, root), assets: [] };
 * ```
 */
export function bundlesOfMetafile(metafile: BundleMetafile | undefined, root: string): PluginBuildRecord['bundles'] {
  const toPosix = (p: string): string => posixRelative(root, p);
  return Object.entries(metafile?.outputs ?? {}).map(([output, o]) => {
    const inputs = Object.entries(o.inputs)
      .filter(([, i]) => i.bytesInOutput > 0)
      .map(([input, i]) => [toPosix(input), i.bytesInOutput] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return { output: toPosix(output), inputs: Object.fromEntries(inputs) };
  });
}

/** One bundle of a plugin: `entry` (relative to the plugin) into `dist/<outfile>`. */
export interface PluginBundle {
  entry: string;
  outfile: string;
  loader?: PluginBundleOptions['loader'];
  /** Lines added after the SDK's banner (what the bundled code needs before it runs). */
  banner?: string[];
  /**
   * `cjs` for a bundle the plugin loads with `requireBundle` of `@travsr/sdk`, from the code
   * caches {@link PluginBuild.writeCodeCaches} stores (default `esm`).
   */
  format?: PluginBundleOptions['format'];
}

/** A built plugin's directories, and where its build finds the files it copies into dist/. */
export interface PluginBuild {
  root: string;
  dist: string;
  /** `require.resolve` from the plugin's own dependencies. */
  resolve(specifier: string): string;
  /** web-tree-sitter's runtime, `tree-sitter.wasm`. */
  treeSitterRuntime(): string;
  /** A grammar of tree-sitter-wasms, by file name (`tree-sitter-go.wasm`). */
  treeSitterGrammar(file: string): string;
  /**
   * Copies `source` (a file of a dependency) to `dist/<name>`, through `transform` when given
   * (a patched grammar), and records where it came from in the build record, so the SBOM names
   * the package it ships from.
   */
  copy(source: string, name: string, transform?: (bytes: Buffer) => Uint8Array): void;
  /**
   * Stores the V8 code cache of the CommonJS bundle `dist/<outfile>` for a brief session of
   * this plugin (the Node.js flags the host starts one with, from the manifest's memory), after
   * calling the bundle's `warm` export when given ({@link writeCodeCaches}). Brief sessions —
   * a commit's few files, the daemon's runs, a small repository — are the ones whose time goes
   * to starting; a long session compiles from source (a cache for it would double the size the
   * plugin ships for a fraction of a second in minutes). Call it last: the warm-up may read
   * what the build copied. Returns the files written.
   */
  writeCodeCaches(outfile: string, warm?: string): string[];
}

/**
 * The steps every plugin build shares: type-check with the plugin's own `tsc` (esbuild only
 * strips types), empty `dist/`, and bundle each entry with {@link pluginBundleOptions}
 * (default: `src/main.ts` → `dist/main.js`). What a plugin copies next to its bundle (wasm,
 * queries, libraries) it copies itself, with the paths the returned {@link PluginBuild} resolves.
 *
 * @example
 * ```js
 * import { build } from 'esbuild';
 * import { buildPlugin } from '@travsr/sdk/build';
 * const p = await buildPlugin(root, build, [{ entry: 'src/main.ts', outfile: 'main.js', loader: { '.scm': 'text' } }]);
 * copyFileSync(p.treeSitterRuntime(), join(p.dist, 'tree-sitter.wasm'));
 * ```
 */
export async function buildPlugin(
  root: string,
  build: EsbuildBuild,
  bundles: readonly PluginBundle[] = [{ entry: 'src/main.ts', outfile: 'main.js' }],
): Promise<PluginBuild> {
  const require = createRequire(join(root, 'package.json'));
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });
  const dist = join(root, 'dist');
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(dist, { recursive: true });
  const toPosix = (p: string): string => posixRelative(root, p);
  const record: PluginBuildRecord = { bundler: { name: 'esbuild', version: esbuildVersion(require) }, bundles: [], assets: [] };
  const writeRecord = (): void => writeFileSync(join(dist, BUILD_RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`);
  for (const b of bundles) {
    const options = pluginBundleOptions(join(root, b.entry), join(dist, b.outfile), {
      ...(b.loader ? { loader: b.loader } : {}),
      ...(b.format ? { format: b.format } : {}),
    });
    if (b.banner) options.banner.js += ['', ...b.banner].join('\n');
    const result = (await build({ ...options, metafile: true, absWorkingDir: root })) as { metafile?: BundleMetafile } | undefined;
    record.bundles.push(...bundlesOfMetafile(result?.metafile, root));
  }
  writeRecord();
  return {
    root,
    dist,
    resolve: (specifier) => require.resolve(specifier),
    treeSitterRuntime: () => require.resolve('web-tree-sitter/tree-sitter.wasm'),
    treeSitterGrammar: (file) => join(dirname(require.resolve('tree-sitter-wasms/package.json')), 'out', file),
    copy(source, name, transform) {
      const target = join(dist, name);
      mkdirSync(dirname(target), { recursive: true });
      if (transform) writeFileSync(target, transform(readFileSync(source)));
      else copyFileSync(source, target);
      record.assets = [...record.assets.filter((a) => a.file !== toPosix(target)), { file: toPosix(target), source: toPosix(source) }].sort(
        (a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0),
      );
      writeRecord();
    },
    writeCodeCaches(outfile, warm) {
      const manifest = JSON.parse(readFileSync(join(root, 'travsr-plugin.json'), 'utf8')) as {
        constraints?: { resources?: { memoryMiB?: number } };
      };
      const flags = nodeLaunchFlags(pluginMemoryMiB(manifest.constraints?.resources?.memoryMiB), { brief: true });
      return writeCodeCaches(join(dist, outfile), { flagSets: [flags], ...(warm ? { warm } : {}) });
    },
  };
}

/** The version of the esbuild the plugin builds with (its own dependency, else the workspace's). */
function esbuildVersion(require: NodeRequire): string {
  try {
    return (JSON.parse(readFileSync(require.resolve('esbuild/package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
