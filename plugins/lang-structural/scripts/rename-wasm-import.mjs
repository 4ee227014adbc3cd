// Grammars of tree-sitter-wasms@0.1.13 are side modules linked at load time against
// web-tree-sitter's runtime (tree-sitter.wasm), which exports only part of libc. The Bash
// grammar's scanner imports `isalpha`, which the 0.25 runtime does not export: the first time
// the scanner calls it (a heredoc, `${…}`), the call throws "resolved is not a function" and
// the parser is left unusable. The runtime does export `iswalpha`, which answers the same for
// every character the scanner passes. This renames the import, and checks the module byte for
// byte: if the grammar is not the expected one the build fails instead of shipping a guess.

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

function name(text) {
  const bytes = Buffer.from(text, 'utf8');
  return Buffer.concat([writeU32(bytes.length), bytes]);
}

/**
 * The function imports of a module: `{ module, name, start, end }` per import entry (byte
 * offsets of the whole entry), plus where the import section is.
 */
export function functionImports(wasm) {
  if (wasm.readUInt32LE(0) !== 0x6d736100) throw new Error('not a WebAssembly module');
  let pos = 8;
  while (pos < wasm.length) {
    const id = wasm[pos];
    const [size, bodyStart] = readU32(wasm, pos + 1);
    if (id === 2) {
      const entries = [];
      let p = bodyStart;
      let count;
      [count, p] = readU32(wasm, p);
      for (let i = 0; i < count; i++) {
        const start = p;
        let len;
        [len, p] = readU32(wasm, p);
        const module = wasm.subarray(p, p + len).toString('utf8');
        p += len;
        [len, p] = readU32(wasm, p);
        const field = wasm.subarray(p, p + len).toString('utf8');
        p += len;
        const kind = wasm[p++];
        if (kind === 0) [, p] = readU32(wasm, p);
        else if (kind === 1) {
          p++;
          const flags = wasm[p++];
          [, p] = readU32(wasm, p);
          if (flags & 1) [, p] = readU32(wasm, p);
        } else if (kind === 2) {
          const flags = wasm[p++];
          [, p] = readU32(wasm, p);
          if (flags & 1) [, p] = readU32(wasm, p);
        } else if (kind === 3) p += 2;
        else throw new Error(`unknown import kind ${kind}`);
        entries.push({ module, name: field, kind, start, end: p });
      }
      return { sectionStart: pos, bodyStart, bodyEnd: bodyStart + size, count, entries };
    }
    pos = bodyStart + size;
  }
  throw new Error('no import section');
}

/**
 * Returns the module with the function import `module.from` renamed to `module.to`, or the
 * module unchanged when it already imports `to` and not `from`.
 * @throws Error when `from` is not imported exactly once as a function.
 */
export function renameFunctionImport(wasm, module, from, to) {
  const section = functionImports(wasm);
  const hits = section.entries.filter((e) => e.module === module && e.name === from);
  const already = section.entries.filter((e) => e.module === module && e.name === to);
  // A module may import one function twice (the scanner also calls `to` itself): legal wasm.
  if (hits.length === 0 && already.length > 0) return wasm; // already renamed
  if (hits.length !== 1 || hits[0].kind !== 0) {
    throw new Error(`expected one function import ${module}.${from}: not the known grammar, review it before patching`);
  }
  const hit = hits[0];
  // module name, then the field name, then the kind and type index as they were.
  const [moduleLen, afterModuleLen] = readU32(wasm, hit.start);
  const fieldAt = afterModuleLen + moduleLen;
  const [fieldLen, afterFieldLen] = readU32(wasm, fieldAt);
  const entry = Buffer.concat([wasm.subarray(hit.start, fieldAt), name(to), wasm.subarray(afterFieldLen + fieldLen, hit.end)]);
  const body = Buffer.concat([wasm.subarray(section.bodyStart, hit.start), entry, wasm.subarray(hit.end, section.bodyEnd)]);
  return Buffer.concat([
    wasm.subarray(0, section.sectionStart),
    Buffer.from([2]),
    writeU32(body.length),
    body,
    wasm.subarray(section.bodyEnd),
  ]);
}
