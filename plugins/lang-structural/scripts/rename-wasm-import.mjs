// Grammars of tree-sitter-wasms@0.1.13 are side modules linked at load time against
// web-tree-sitter's runtime (tree-sitter.wasm), which exports only part of libc. The Bash
// grammar's scanner imports `isalpha`, which the 0.25 runtime does not export: the first time
// the scanner calls it (a heredoc, `${…}`), the call throws "resolved is not a function" and
// the parser is left unusable. The runtime does export `iswalpha`, which answers the same for
// every character the scanner passes. This renames the import, and checks the module byte for
// byte: if the grammar is not the expected one the build fails instead of shipping a guess.

import { encodeWasmName, readWasmImports, replaceSectionBody, WASM_EXTERNAL, WASM_SECTION, wasmSections } from '@travsr/sdk/build';

/**
 * Returns the module with the function import `module.from` renamed to `module.to`, or the
 * module unchanged when it already imports `to` and not `from`.
 * @throws Error when `from` is not imported exactly once as a function.
 */
export function renameFunctionImport(wasm, module, from, to) {
  const section = wasmSections(wasm).find((s) => s.id === WASM_SECTION.import);
  if (!section) throw new Error('no import section');
  const entries = readWasmImports(wasm, section);
  const hits = entries.filter((e) => e.module === module && e.name === from);
  const already = entries.filter((e) => e.module === module && e.name === to);
  // A module may import one function twice (the scanner also calls `to` itself): legal wasm.
  if (hits.length === 0 && already.length > 0) return wasm; // already renamed
  if (hits.length !== 1 || hits[0].kind !== WASM_EXTERNAL.function) {
    throw new Error(`expected one function import ${module}.${from}: not the known grammar, review it before patching`);
  }
  const hit = hits[0];
  // The module name, then the new field name, then the kind and type index as they were.
  const entry = Buffer.concat([wasm.subarray(hit.start, hit.nameStart), encodeWasmName(to), wasm.subarray(hit.descStart, hit.end)]);
  const body = Buffer.concat([wasm.subarray(section.bodyStart, hit.start), entry, wasm.subarray(hit.end, section.end)]);
  return replaceSectionBody(wasm, section, body);
}
