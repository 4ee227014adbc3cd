import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { build, version as esbuildVersion } from 'esbuild';
import { BUILD_RECORD_FILE, bundlesOfMetafile, pluginBundleOptions, type PluginBuildRecord } from '@travsr/sdk/build';

/**
 * Bundles a plugin's `src/main.ts` into `dist/main.js` with every dependency inside, so
 * the plugin directory runs with Node.js alone (the sandbox binds no node_modules), and keeps
 * esbuild's record of what went in (`dist/build-record.json`), from which `travsr plugin pack`
 * writes the plugin's SBOM. `@travsr/sdk` is resolved from this host's installation when the
 * plugin has none yet.
 */
export async function bundlePlugin(dir: string): Promise<void> {
  // esbuild wants an absolute working directory; a relative one fails with "not an absolute path".
  const pluginDir = resolve(dir);
  const require = createRequire(import.meta.url);
  const result = await build({
    ...pluginBundleOptions(join(pluginDir, 'src', 'main.ts'), join(pluginDir, 'dist', 'main.js'), { logLevel: 'silent' }),
    absWorkingDir: pluginDir,
    nodePaths: require.resolve.paths('@travsr/sdk') ?? [],
    metafile: true,
  });
  const record: PluginBuildRecord = {
    bundler: { name: 'esbuild', version: esbuildVersion },
    bundles: bundlesOfMetafile(result.metafile, pluginDir),
    assets: [],
  };
  writeFileSync(join(pluginDir, 'dist', BUILD_RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`);
}
