/**
 * `@travsr/sdk/build` — how to bundle a plugin so it runs in the sandbox with Node.js alone,
 * skipped when nothing it reads changed,
 * with V8 code caches for a large bundle (one per flag set the host starts the plugin with),
 * and how to patch a prebuilt grammar's wasm at build time (LEB128, sections, imports,
 * exports, function bodies).
 */
export { pluginBundleOptions, type PluginBundleOptions } from './bundle-options.js';
export {
  BUILD_RECORD_FILE,
  buildPlugin,
  bundlesOfMetafile,
  type BundleMetafile,
  type EsbuildBuild,
  type PluginBuild,
  type PluginBuildRecord,
  type PluginBundle,
} from './build-plugin.js';
export { writeCodeCaches, type CodeCacheBuildOptions } from './code-cache.js';
export { buildGrammarPlugin, type GrammarPluginLayout } from './grammar-plugin.js';
export {
  buildIfChanged,
  FORCE_BUILD_ENV,
  lockfiles,
  pluginBuildStep,
  treeDigest,
  workspaceDependencyInputs,
  type BuildStep,
} from './build-stamp.js';
export { encodeUleb128, readUleb128 } from './leb128.js';
export { WasmFormatError } from './wasm-format-error.js';
export {
  encodeWasmBytes,
  encodeWasmName,
  encodeWasmVector,
  readFunctionBodies,
  readWasmExports,
  readWasmImports,
  replaceSectionBody,
  WASM_EXTERNAL,
  WASM_SECTION,
  wasmSections,
  type WasmExport,
  type WasmImport,
  type WasmSection,
} from './wasm-module.js';
