// Bundles src/main.ts and everything it imports into dist/main.js: the plugin directory
// must run with nothing but Node.js, because the host binds it read-only into a sandbox.
import { build } from 'esbuild';
import { pluginBundleOptions } from '@travsr/sdk/build';

await build(pluginBundleOptions('src/main.ts', 'dist/main.js'));
