// The Lua grammar in tree-sitter-wasms@0.1.13 has an external scanner whose `deserialize`
// ignores an empty state (it only restores a 2-byte one). Tree-sitter starts every parse
// with an empty state, so the scanner keeps whatever it held after the previous parse (or
// the garbage of a reused malloc chunk): from the second file on, `x = 1` parses as a call
// with an unterminated string. This rewrites that one function body so an empty state
// resets the scanner (started = 0, depth = 0), which is what upstream intends.
//
// The patch is checked byte for byte: if the grammar changes, the build fails instead of
// shipping a silently different parser.

import {
  encodeWasmBytes,
  encodeWasmVector,
  readFunctionBodies,
  readWasmExports,
  readWasmImports,
  replaceSectionBody,
  WASM_EXTERNAL,
  WASM_SECTION,
  wasmSections,
} from '@travsr/sdk/build';

// deserialize(payload, buffer, length):
//   if (length == 2) { payload.started = (i8)buffer[0]; payload.depth = (i8)buffer[1]; }
const ORIGINAL = Buffer.from('0020024102460440200020012c0000360200200020012c00013602040b0b', 'hex');
//   ... else { *(u64 *)payload = 0; }
const PATCHED = Buffer.from('0020024102460440200020012c0000360200200020012c000136020405200042003702000b0b', 'hex');
const FUNCTION = 'tree_sitter_lua_external_scanner_deserialize';

/** Returns the patched module, or throws when the input is not the expected grammar. */
export function patchLuaScanner(wasm) {
  const sections = wasmSections(wasm);
  const imports = sections.find((s) => s.id === WASM_SECTION.import);
  const exports = sections.find((s) => s.id === WASM_SECTION.export);
  const target = exports && readWasmExports(wasm, exports).find((e) => e.kind === WASM_EXTERNAL.function && e.name === FUNCTION)?.index;
  if (target === undefined) throw new Error(`${FUNCTION} is not exported: not the expected Lua grammar`);
  const code = sections.find((s) => s.id === WASM_SECTION.code);
  if (!code) throw new Error('no code section');
  // Imported functions come first in the function index space.
  const importedFunctions = imports ? readWasmImports(wasm, imports).filter((i) => i.kind === WASM_EXTERNAL.function).length : 0;
  const bodies = readFunctionBodies(wasm, code);
  const index = target - importedFunctions;
  const body = bodies[index];
  if (!body) throw new Error(`no body for function ${target}`);
  if (PATCHED.equals(body)) return wasm; // already patched
  if (!ORIGINAL.equals(body)) throw new Error(`${FUNCTION} is not the known buggy version; review the grammar before patching`);
  bodies[index] = PATCHED;
  return replaceSectionBody(wasm, code, encodeWasmVector(bodies.map(encodeWasmBytes)));
}
