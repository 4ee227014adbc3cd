// The ONNX runtime the models run on: ONNX Runtime's WebAssembly build (onnxruntime-web), which
// runs in Node.js with nothing native and no install step — so a model runner is one artifact
// for every platform and loads no native code inside its sandbox. (onnxruntime-node's installer
// downloads CUDA libraries from GitHub on every Linux x64 install and fails without that network;
// its API is the same, so it can take this module's place.)
import * as ort from 'onnxruntime-web';

export { ort };

/** Options of the runtime, set once per process before the first session. */
export interface RuntimeOptions {
  /** Threads of one run; default 1 (a sidecar shares the machine with the host and other plugins). */
  threads?: number;
  /** Directory of the runtime's `.wasm` files when they are not next to onnxruntime-web's own module (a bundled plugin). */
  wasmDir?: string;
}

/** Sets the runtime's options (process-wide). */
export function configureRuntime(options: RuntimeOptions): void {
  ort.env.wasm.numThreads = options.threads ?? 1;
  ort.env.logLevel = 'error';
  if (options.wasmDir) ort.env.wasm.wasmPaths = options.wasmDir.endsWith('/') ? options.wasmDir : `${options.wasmDir}/`;
}
