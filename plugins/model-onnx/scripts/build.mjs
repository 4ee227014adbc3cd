// Builds @travsr/plugin-model-onnx:
//   dist/*.js, *.d.ts            the library (tsc -p tsconfig.build.json)
//   dist/runner/runner.mjs       src/runner.ts with every dependency bundled (esbuild): the entry
//                                point of every model plugin (copied into it by assembleModelPlugin)
//   dist/runner/ort-wasm-simd-threaded.{mjs,wasm}  ONNX Runtime's WebAssembly build it loads
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { pluginBundleOptions } from '@travsr/sdk/build';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });

const runner = join(root, 'dist', 'runner');
rmSync(runner, { recursive: true, force: true });
mkdirSync(runner, { recursive: true });
await build(pluginBundleOptions(join(root, 'src', 'runner.ts'), join(runner, 'runner.mjs')));
// onnxruntime-web exports no package.json: its main module lies in its dist/.
const ortDist = dirname(require.resolve('onnxruntime-web'));
for (const file of ['ort-wasm-simd-threaded.mjs', 'ort-wasm-simd-threaded.wasm']) copyFileSync(join(ortDist, file), join(runner, file));
console.log('built dist/ (library) and dist/runner/ (model plugin entry point + ONNX Runtime WebAssembly)');
