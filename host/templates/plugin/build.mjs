// Type-checks, then bundles src/main.ts and everything it imports into dist/main.js: the plugin
// directory must run with nothing but Node.js, because the host binds it read-only into a
// sandbox. buildPlugin also keeps esbuild's record of what went into the bundle in
// dist/build-record.json, from which `travsr plugin pack` writes the plugin's SBOM. Copy any file
// you ship from a dependency with `plugin.copy(source, name)` so the SBOM names it too.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildPlugin } from '@travsr/sdk/build';

await buildPlugin(dirname(fileURLToPath(import.meta.url)), build);
