/** The `env` function imports of the YAML grammar as shipped in tree-sitter-wasms@0.1.13, in order. */
export const EXPECTED_FUNCTION_IMPORTS: readonly string[];
/** The `env` function imports of a wasm module, in order. */
export function functionImports(wasm: Uint8Array): string[];
/** The grammar with `_Znwm`/`_ZdlPv` imported as `malloc`/`free`; throws on any other module. */
export function patchYamlImports(wasm: Buffer): Buffer;
