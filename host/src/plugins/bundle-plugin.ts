import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { pluginBundleOptions } from '@travsr/sdk/build';

/**
 * Bundles a plugin's `src/main.ts` into `dist/main.js` with every dependency inside, so
 * the plugin directory runs with Node.js alone (the sandbox binds no node_modules).
 * `@travsr/sdk` is resolved from this host's installation when the plugin has none yet.
 */
export async function bundlePlugin(dir: string): Promise<void> {
  // esbuild wants an absolute working directory; a relative one fails with "not an absolute path".
  const pluginDir = resolve(dir);
  const require = createRequire(import.meta.url);
  await build({
    ...pluginBundleOptions(join(pluginDir, 'src', 'main.ts'), join(pluginDir, 'dist', 'main.js'), { logLevel: 'silent' }),
    absWorkingDir: pluginDir,
    nodePaths: require.resolve.paths('@travsr/sdk') ?? [],
  });
}
