/**
 * The esbuild options (a plain object: the SDK does not depend on esbuild) that turn a
 * plugin's entry point into ONE self-contained file: an ES module, or a CommonJS module for a
 * large bundle the plugin loads from a V8 code cache (`format: 'cjs'`, see `requireBundle` of
 * `@travsr/sdk` and {@link writeCodeCaches}: Node 20 has no code cache for ES modules). The host binds the plugin
 * directory read-only into a sandbox with Node.js and nothing else, so everything the
 * plugin imports must be inside the bundle:
 * - msgpackr's optional native decoder is left out and disabled (it would need node_modules);
 * - bundled CommonJS dependencies get a `require` (ESM has none);
 * - whitespace and comments go and the syntax is shortened (names stay as written, so stack
 *   traces keep them): a plugin starts in every index run, and V8 parses less. The TypeScript
 *   compiler's bundle loads in about 360 ms instead of 440.
 */
export interface PluginBundleOptions {
  entryPoints: string[];
  outfile: string;
  bundle: true;
  platform: 'node';
  format: 'esm' | 'cjs';
  target: string;
  external: string[];
  define: Record<string, string>;
  banner: { js: string };
  minifyWhitespace: true;
  minifySyntax: true;
  loader?: Record<string, 'text' | 'binary' | 'file' | 'json'>;
  logLevel: 'silent' | 'error' | 'warning' | 'info';
  /** Set by buildPlugin: the bundler's record of what went into the output. */
  metafile?: boolean;
  /** Set by buildPlugin: the directory paths in the metafile are relative to. */
  absWorkingDir?: string;
}

/**
 * Options for `esbuild.build()` that bundle `entry` into `outfile` the way every Travsr
 * plugin must be bundled.
 *
 * @example
 * ```js
 * import { build } from 'esbuild';
 * import { pluginBundleOptions } from '@travsr/sdk/build';
 * await build(pluginBundleOptions('src/main.ts', 'dist/main.js', { loader: { '.scm': 'text' } }));
 * ```
 */
export function pluginBundleOptions(
  entry: string,
  outfile: string,
  extra: {
    loader?: PluginBundleOptions['loader'];
    logLevel?: PluginBundleOptions['logLevel'];
    format?: PluginBundleOptions['format'];
  } = {},
): PluginBundleOptions {
  const define: Record<string, string> = { 'process.env.MSGPACKR_NATIVE_ACCELERATION_DISABLED': '"true"' };
  // CommonJS has `require` and `__filename`; what the bundled ES modules read from `import.meta.url` is the bundle's URL.
  if (extra.format === 'cjs') define['import.meta.url'] = '__travsrImportMetaUrl';
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: extra.format ?? 'esm',
    target: 'node20',
    external: ['msgpackr-extract'],
    define,
    banner: {
      js:
        extra.format === 'cjs'
          ? "const __travsrImportMetaUrl = require('node:url').pathToFileURL(__filename).href;"
          : "import { createRequire as __travsrCreateRequire } from 'node:module';\nconst require = __travsrCreateRequire(import.meta.url);",
    },
    minifyWhitespace: true,
    minifySyntax: true,
    ...(extra.loader ? { loader: extra.loader } : {}),
    logLevel: extra.logLevel ?? 'warning',
  };
}
