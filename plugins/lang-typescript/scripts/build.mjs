// Builds the plugin into dist/: two bundled files (TypeScript's compiler in one) plus the
// lib.*.d.ts files the type checker loads, so the plugin directory runs with nothing but
// Node.js (the host binds it read-only into a sandbox, without node_modules).
//
//   dist/main.js        src/main.ts (the protocol) with its dependencies bundled (esbuild)
//   dist/analysis.js    src/analysis.ts (parser, type checker) with TypeScript bundled
//   dist/lib.*.d.ts     TypeScript's default libraries (ES, DOM, …) for Phase B
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildIfChanged, buildPlugin, pluginBuildStep } from '@travsr/sdk/build';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
// Nothing happens when nothing the build reads changed since it last ran (TRAVSR_BUILD_FORCE=1 builds anyway).
await buildIfChanged(pluginBuildStep(root), async () => {
  // 1-2. Type-check, then bundle in two halves: dist/main.js speaks the protocol and starts
  //    quickly (no compiler); dist/analysis.js holds the compiler and runs on the worker thread
  //    (or on the main thread, loaded when a session runs Phase A alone). TypeScript's CommonJS
  //    code reads __filename/__dirname at load time (to find its libraries); an ES module has
  //    neither, so the banner defines them for the bundle's file.
  const p = await buildPlugin(root, build, [
    { entry: 'src/main.ts', outfile: 'main.js' },
    {
      entry: 'src/analysis.ts',
      outfile: 'analysis.js',
      banner: [
        "import { fileURLToPath as __travsrFileURLToPath } from 'node:url';",
        "import { dirname as __travsrDirname } from 'node:path';",
        'const __filename = __travsrFileURLToPath(import.meta.url);',
        'const __dirname = __travsrDirname(__filename);',
      ],
    },
  ]);
  const dist = p.dist;

  // 3. The default libraries next to the bundle.
  const libSource = dirname(p.resolve('typescript/lib/lib.d.ts'));
  let libs = 0;
  for (const name of readdirSync(libSource)) {
    if (/^lib\..*\.d\.ts$|^lib\.d\.ts$/.test(name)) {
      p.copy(join(libSource, name), name);
      libs++;
    }
  }

  console.log(`built ${join('dist', 'main.js')}, ${join('dist', 'analysis.js')} (+ ${libs} lib.*.d.ts)`);
});
