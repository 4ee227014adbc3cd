// Builds the plugin into dist/: two bundled files (TypeScript's compiler in one) plus the
// lib.*.d.ts files the type checker loads, so the plugin directory runs with nothing but
// Node.js (the host binds it read-only into a sandbox, without node_modules).
//
//   dist/main.js        src/main.ts (the protocol) with its dependencies bundled (esbuild)
//   dist/analysis.js    src/analysis.ts (parser, type checker) with TypeScript bundled
//   dist/lib.*.d.ts     TypeScript's default libraries (ES, DOM, …) for Phase B
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { pluginBundleOptions } from '@travsr/sdk/build';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dist = join(root, 'dist');
const require = createRequire(import.meta.url);

// 1. Type-check (esbuild only strips types).
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });

// 2. Bundle, in two halves: dist/main.js speaks the protocol and starts quickly (no
//    compiler); dist/analysis.js holds the compiler and runs on the worker thread (or on the
//    main thread, loaded when a session runs Phase A alone). TypeScript's CommonJS code reads
//    __filename/__dirname at load time (to find its libraries); an ES module has neither, so
//    the banner defines them for the bundle's file.
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
await build(pluginBundleOptions(join(root, 'src', 'main.ts'), join(dist, 'main.js')));
const analysis = pluginBundleOptions(join(root, 'src', 'analysis.ts'), join(dist, 'analysis.js'));
analysis.banner.js += [
  '',
  "import { fileURLToPath as __travsrFileURLToPath } from 'node:url';",
  "import { dirname as __travsrDirname } from 'node:path';",
  'const __filename = __travsrFileURLToPath(import.meta.url);',
  'const __dirname = __travsrDirname(__filename);',
].join('\n');
await build(analysis);

// 3. The default libraries next to the bundle.
const libSource = dirname(require.resolve('typescript/lib/lib.d.ts'));
let libs = 0;
for (const name of readdirSync(libSource)) {
  if (/^lib\..*\.d\.ts$|^lib\.d\.ts$/.test(name)) {
    copyFileSync(join(libSource, name), join(dist, name));
    libs++;
  }
}

console.log(`built ${join('dist', 'main.js')}, ${join('dist', 'analysis.js')} (+ ${libs} lib.*.d.ts)`);
