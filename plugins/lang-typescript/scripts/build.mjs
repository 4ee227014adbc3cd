// Builds the plugin into dist/: two bundled files (TypeScript's compiler in one) plus the
// lib.*.d.ts files the type checker loads, so the plugin directory runs with nothing but
// Node.js (the host binds it read-only into a sandbox, without node_modules).
//
//   dist/main.js                src/main.ts (the protocol) with its dependencies bundled (esbuild)
//   dist/analysis.cjs           src/analysis.ts (parser, type checker) with TypeScript bundled, CommonJS
//   dist/analysis.cjs.<key>.v8  V8 code cache of it for a brief session (the flags the host starts one with)
//   dist/analysis-worker.js     src/analysis-worker.ts, the worker thread's entry
//   dist/lib.*.d.ts             TypeScript's default libraries (ES, DOM, …) for Phase B
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildIfChanged, buildPlugin, pluginBuildStep } from '@travsr/sdk/build';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
// Nothing happens when nothing the build reads changed since it last ran (TRAVSR_BUILD_FORCE=1 builds anyway).
await buildIfChanged(pluginBuildStep(root), async () => {
  // 1-2. Type-check, then bundle in two halves: dist/main.js speaks the protocol and starts
  //    quickly (no compiler); dist/analysis.cjs holds the compiler and runs on the worker thread
  //    (dist/analysis-worker.js loads it there) or on the main thread, loaded when a session
  //    runs Phase A alone. It is CommonJS so that it loads from a V8 code cache (step 4).
  const p = await buildPlugin(root, build, [
    { entry: 'src/main.ts', outfile: 'main.js' },
    { entry: 'src/analysis-worker.ts', outfile: 'analysis-worker.js' },
    { entry: 'src/analysis.ts', outfile: 'analysis.cjs', format: 'cjs' },
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

  // 4. The code cache of the analysis half for brief sessions, after a warm-up over a small
  //    repository (which reads the libraries of step 3).
  const caches = p.writeCodeCaches('analysis.cjs', 'warmCodeCache');

  console.log(
    `built ${join('dist', 'main.js')}, ${join('dist', 'analysis.cjs')} (+ ${caches.length} code cache), ${join('dist', 'analysis-worker.js')} (+ ${libs} lib.*.d.ts)`,
  );
});
