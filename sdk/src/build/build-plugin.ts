import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pluginBundleOptions, type PluginBundleOptions } from './bundle-options.js';

/** esbuild's `build`, passed in: the SDK does not depend on esbuild. */
export type EsbuildBuild = (options: PluginBundleOptions) => Promise<unknown>;

/** One bundle of a plugin: `entry` (relative to the plugin) into `dist/<outfile>`. */
export interface PluginBundle {
  entry: string;
  outfile: string;
  loader?: PluginBundleOptions['loader'];
  /** Lines added after the SDK's banner (what the bundled code needs before it runs). */
  banner?: string[];
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
  for (const b of bundles) {
    const options = pluginBundleOptions(join(root, b.entry), join(dist, b.outfile), b.loader ? { loader: b.loader } : {});
    if (b.banner) options.banner.js += ['', ...b.banner].join('\n');
    await build(options);
  }
  return {
    root,
    dist,
    resolve: (specifier) => require.resolve(specifier),
    treeSitterRuntime: () => require.resolve('web-tree-sitter/tree-sitter.wasm'),
    treeSitterGrammar: (file) => join(dirname(require.resolve('tree-sitter-wasms/package.json')), 'out', file),
  };
}
