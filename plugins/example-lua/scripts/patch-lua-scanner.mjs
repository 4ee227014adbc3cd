// The Lua grammar in tree-sitter-wasms@0.1.13 has an external scanner whose `deserialize`
// ignores an empty state (it only restores a 2-byte one). Tree-sitter starts every parse
// with an empty state, so the scanner keeps whatever it held after the previous parse (or
// the garbage of a reused malloc chunk): from the second file on, `x = 1` parses as a call
// with an unterminated string. This rewrites that one function body so an empty state
// resets the scanner (started = 0, depth = 0), which is what upstream intends.
//
// The patch is checked byte for byte: if the grammar changes, the build fails instead of
// shipping a silently different parser.

// deserialize(payload, buffer, length):
//   if (length == 2) { payload.started = (i8)buffer[0]; payload.depth = (i8)buffer[1]; }
const ORIGINAL = Buffer.from('0020024102460440200020012c0000360200200020012c00013602040b0b', 'hex');
//   ... else { *(u64 *)payload = 0; }
const PATCHED = Buffer.from('0020024102460440200020012c0000360200200020012c000136020405200042003702000b0b', 'hex');
const FUNCTION = 'tree_sitter_lua_external_scanner_deserialize';

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

/** Returns the patched module, or throws when the input is not the expected grammar. */
export function patchLuaScanner(wasm) {
  if (wasm.readUInt32LE(0) !== 0x6d736100) throw new Error('not a WebAssembly module');
  const sections = [];
  let pos = 8;
  while (pos < wasm.length) {
    const id = wasm[pos];
    const [size, bodyStart] = readU32(wasm, pos + 1);
    sections.push({ id, start: pos, bodyStart, end: bodyStart + size });
    pos = bodyStart + size;
  }
  // Imported functions come first in the function index space.
  let importedFunctions = 0;
  let target;
  for (const s of sections) {
    if (s.id === 2) {
      let p = s.bodyStart;
      let count;
      [count, p] = readU32(wasm, p);
      for (let i = 0; i < count; i++) {
        let len;
        [len, p] = readU32(wasm, p);
        p += len;
        [len, p] = readU32(wasm, p);
        p += len;
        const kind = wasm[p++];
        if (kind === 0) {
          importedFunctions++;
          [, p] = readU32(wasm, p);
        } else if (kind === 1) {
          p++;
          const flags = wasm[p++];
          [, p] = readU32(wasm, p);
          if (flags & 1) [, p] = readU32(wasm, p);
        } else if (kind === 2) {
          const flags = wasm[p++];
          [, p] = readU32(wasm, p);
          if (flags & 1) [, p] = readU32(wasm, p);
        } else if (kind === 3) {
          p += 2;
        } else throw new Error(`unknown import kind ${kind}`);
      }
    } else if (s.id === 7) {
      let p = s.bodyStart;
      let count;
      [count, p] = readU32(wasm, p);
      for (let i = 0; i < count; i++) {
        let len;
        [len, p] = readU32(wasm, p);
        const name = wasm.subarray(p, p + len).toString('utf8');
        p += len;
        const kind = wasm[p++];
        let index;
        [index, p] = readU32(wasm, p);
        if (kind === 0 && name === FUNCTION) target = index;
      }
    }
  }
  if (target === undefined) throw new Error(`${FUNCTION} is not exported: not the expected Lua grammar`);
  const code = sections.find((s) => s.id === 10);
  if (!code) throw new Error('no code section');
  let p = code.bodyStart;
  let count;
  [count, p] = readU32(wasm, p);
  const bodies = [];
  for (let i = 0; i < count; i++) {
    const [size, start] = readU32(wasm, p);
    bodies.push(wasm.subarray(start, start + size));
    p = start + size;
  }
  const index = target - importedFunctions;
  const body = bodies[index];
  if (!body) throw new Error(`no body for function ${target}`);
  if (body.equals(PATCHED)) return wasm; // already patched
  if (!body.equals(ORIGINAL)) throw new Error(`${FUNCTION} is not the known buggy version; review the grammar before patching`);
  bodies[index] = PATCHED;
  const newCode = Buffer.concat([writeU32(count), ...bodies.flatMap((b) => [writeU32(b.length), b])]);
  return Buffer.concat([wasm.subarray(0, code.start), Buffer.from([10]), writeU32(newCode.length), newCode, wasm.subarray(code.end)]);
}
