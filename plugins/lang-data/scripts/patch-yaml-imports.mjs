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

function readU32(buf, pos) {
  let result = 0;
  let shift = 0;
  for (;;) {
    const byte = buf[pos++];
    result += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if ((byte & 0x80) === 0) return [result, pos];
  }
}

function writeU32(n) {
  const out = [];
  do {
    let byte = n & 0x7f;
    n = Math.floor(n / 128);
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return Buffer.from(out);
}

/** Parses the import section: `{ module, name, desc }` per import, `desc` being the raw descriptor bytes. */
function readImports(wasm, section) {
  let p = section.bodyStart;
  let count;
  [count, p] = readU32(wasm, p);
  const imports = [];
  for (let i = 0; i < count; i++) {
    let len;
    [len, p] = readU32(wasm, p);
    const module = wasm.subarray(p, p + len).toString('utf8');
    p += len;
    [len, p] = readU32(wasm, p);
    const name = wasm.subarray(p, p + len).toString('utf8');
    p += len;
    const descStart = p;
    const kind = wasm[p++];
    if (kind === 0) {
      [, p] = readU32(wasm, p); // type index
    } else if (kind === 1) {
      p++; // reference type
      const flags = wasm[p++];
      [, p] = readU32(wasm, p);
      if (flags & 1) [, p] = readU32(wasm, p);
    } else if (kind === 2) {
      const flags = wasm[p++];
      [, p] = readU32(wasm, p);
      if (flags & 1) [, p] = readU32(wasm, p);
    } else if (kind === 3) {
      p += 2; // value type, mutability
    } else {
      throw new Error(`unknown import kind ${kind}`);
    }
    imports.push({ module, name, kind, desc: wasm.subarray(descStart, p) });
  }
  if (p !== section.end) throw new Error('import section has trailing bytes');
  return imports;
}

function sectionsOf(wasm) {
  if (wasm.length < 8 || wasm.readUInt32LE(0) !== 0x6d736100) throw new Error('not a WebAssembly module');
  const sections = [];
  let pos = 8;
  while (pos < wasm.length) {
    const id = wasm[pos];
    const [size, bodyStart] = readU32(wasm, pos + 1);
    sections.push({ id, start: pos, bodyStart, end: bodyStart + size });
    pos = bodyStart + size;
  }
  return sections;
}

/** The `env` function imports of a wasm module, in order. */
export function functionImports(wasm) {
  const section = sectionsOf(wasm).find((s) => s.id === 2);
  if (!section) return [];
  return readImports(wasm, section)
    .filter((i) => i.module === 'env' && i.kind === 0)
    .map((i) => i.name);
}

/** Returns the patched module, or throws when the input is not the expected grammar. */
export function patchYamlImports(wasm) {
  const section = sectionsOf(wasm).find((s) => s.id === 2);
  if (!section) throw new Error('no import section: not the expected YAML grammar');
  const imports = readImports(wasm, section);
  const names = imports.filter((i) => i.module === 'env' && i.kind === 0).map((i) => i.name);
  const patched = EXPECTED_FUNCTION_IMPORTS.map((n) => RENAMES[n] ?? n);
  if (names.join('\n') === patched.join('\n')) return wasm; // already patched
  if (names.join('\n') !== EXPECTED_FUNCTION_IMPORTS.join('\n')) {
    throw new Error(
      `the YAML grammar imports ${names.join(', ') || 'no env functions'}: not the known version; review the grammar before patching`,
    );
  }
  const parts = [writeU32(imports.length)];
  for (const i of imports) {
    const name = i.module === 'env' && i.kind === 0 ? (RENAMES[i.name] ?? i.name) : i.name;
    const m = Buffer.from(i.module, 'utf8');
    const n = Buffer.from(name, 'utf8');
    parts.push(writeU32(m.length), m, writeU32(n.length), n, i.desc);
  }
  const body = Buffer.concat(parts);
  return Buffer.concat([wasm.subarray(0, section.start), Buffer.from([2]), writeU32(body.length), body, wasm.subarray(section.end)]);
}
