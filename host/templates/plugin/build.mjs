// Bundles src/main.ts and everything it imports into dist/main.js: the plugin directory
// must run with nothing but Node.js, because the host binds it read-only into a sandbox.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['msgpackr-extract'],
  define: { 'process.env.MSGPACKR_NATIVE_ACCELERATION_DISABLED': '"true"' },
  banner: {
    js: "import { createRequire as __travsrCreateRequire } from 'node:module';\nconst require = __travsrCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
