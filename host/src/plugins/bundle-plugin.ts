import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';

/**
 * Bundles a plugin's `src/main.ts` into `dist/main.js` with every dependency inside, so
 * the plugin directory runs with Node.js alone (the sandbox binds no node_modules).
 * `@travsr/sdk` is resolved from this host's installation when the plugin has none yet.
 */
export async function bundlePlugin(pluginDir: string): Promise<void> {
  const require = createRequire(import.meta.url);
  await build({
    absWorkingDir: pluginDir,
    entryPoints: [join(pluginDir, 'src', 'main.ts')],
    outfile: join(pluginDir, 'dist', 'main.js'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    nodePaths: require.resolve.paths('@travsr/sdk') ?? [],
    external: ['msgpackr-extract'],
    define: { 'process.env.MSGPACKR_NATIVE_ACCELERATION_DISABLED': '"true"' },
    banner: {
      js: "import { createRequire as __travsrCreateRequire } from 'node:module';\nconst require = __travsrCreateRequire(import.meta.url);",
    },
    logLevel: 'silent',
  });
}
