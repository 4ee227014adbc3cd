// The YAML grammar in tree-sitter-wasms@0.1.13 has a C++ external scanner. Its wasm imports
// the C++ allocator (`operator new` = _Znwm, `operator delete` = _ZdlPv), which
// web-tree-sitter 0.25's runtime does not export: the grammar loads, but the first parse
// fails with "resolved is not a function" when the scanner allocates. The runtime does
// export `malloc` and `free`, which have the same wasm signatures (i32 → i32, i32 → ()) and
// the same meaning for a scanner that never throws, so the build renames those two imports.
//
// Nothing else changes. The import list is checked name by name first: if the grammar
// changes, the build fails instead of shipping a silently different parser. The imports
// still unresolved afterwards (abort, __assert_fail, std::__throw_length_error) are only
// reached when the scanner would crash anyway; the parse then throws and that one file fails.

import {
  encodeWasmName,
  encodeWasmVector,
  readWasmImports,
  replaceSectionBody,
  WASM_EXTERNAL,
  WASM_SECTION,
  wasmSections,
} from '@travsr/sdk/build';

const RENAMES = { _Znwm: 'malloc', _ZdlPv: 'free' };

/** The `env` function imports of the grammar as shipped, in order. */
export const EXPECTED_FUNCTION_IMPORTS = [
  '__assert_fail',
  '_Znwm',
  '_ZdlPv',
  '_ZNKSt3__220__vector_base_commonILb1EE20__throw_length_errorEv',
  'abort',
  'memcpy',
];

/** The `env` function imports of a wasm module, in order. */
export function functionImports(wasm) {
  const section = wasmSections(wasm).find((s) => s.id === WASM_SECTION.import);
  if (!section) return [];
  return envFunctions(readWasmImports(wasm, section));
}

function envFunctions(imports) {
  return imports.filter((i) => i.module === 'env' && i.kind === WASM_EXTERNAL.function).map((i) => i.name);
}

/** Returns the patched module, or throws when the input is not the expected grammar. */
export function patchYamlImports(wasm) {
  const section = wasmSections(wasm).find((s) => s.id === WASM_SECTION.import);
  if (!section) throw new Error('no import section: not the expected YAML grammar');
  const imports = readWasmImports(wasm, section);
  const names = envFunctions(imports);
  const patched = EXPECTED_FUNCTION_IMPORTS.map((n) => RENAMES[n] ?? n);
  if (names.join('\n') === patched.join('\n')) return wasm; // already patched
  if (names.join('\n') !== EXPECTED_FUNCTION_IMPORTS.join('\n')) {
    throw new Error(
      `the YAML grammar imports ${names.join(', ') || 'no env functions'}: not the known version; review the grammar before patching`,
    );
  }
  const entries = imports.map((i) => {
    const name = i.module === 'env' && i.kind === WASM_EXTERNAL.function ? (RENAMES[i.name] ?? i.name) : i.name;
    return Buffer.concat([encodeWasmName(i.module), encodeWasmName(name), wasm.subarray(i.descStart, i.end)]);
  });
  return replaceSectionBody(wasm, section, encodeWasmVector(entries));
}
