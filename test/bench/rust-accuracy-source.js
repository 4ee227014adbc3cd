// Rust source text for the `rust-accuracy` reference: rustc's save-analysis gives a definition
// only the span of its name and a reference only the span of the name it uses, so the extent of
// an item (to find the function around a call), whether a reference is a call, and where the
// `macro_rules!` bodies are (invisible to save-analysis) come from the text itself, with a small
// lexer that knows comments (nested), strings (raw, byte), char literals and lifetimes.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One source file: its text and where each line starts. Lines are 1-based (save-analysis'
 * and the graph export's); indexes are UTF-16 offsets into the text.
 */
export class RustSource {
  constructor(text) {
    this.text = text;
    /** lineStart[n] = index of line n's first character; [0] is unused. */
    this.lineStart = [0, 0];
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.lineStart.push(i + 1);
  }

  /** The number of lines (a final newline ends the last line, it starts no new one). */
  get lines() {
    const n = this.lineStart.length - 1;
    return this.text.endsWith('\n') ? n - 1 : n;
  }

  /** The index of (line, column), both 1-based, the column counted in code points as rustc counts it. */
  indexOf(line, column) {
    let i = this.lineStart[line] ?? this.text.length;
    for (let c = 1; c < column; c++) i += this.text.codePointAt(i) > 0xffff ? 2 : 1;
    return i;
  }

  /** The 1-based line holding index `idx`. */
  lineOf(idx) {
    let lo = 1;
    let hi = this.lineStart.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStart[mid] <= idx) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The text of line `n`, without its newline. */
  line(n) {
    const start = this.lineStart[n];
    if (start === undefined) return '';
    const end = this.lineStart[n + 1];
    return this.text.slice(start, end === undefined ? undefined : end - 1);
  }
}

/** Reads files under `root` by relative path, once each; `undefined` for a file that is not there (generated). */
export class SourceCache {
  constructor(root) {
    this.root = root;
    this.files = new Map();
  }

  get(rel) {
    if (!this.files.has(rel)) {
      let source;
      try {
        source = new RustSource(readFileSync(join(this.root, rel), 'utf8'));
      } catch {
        source = undefined;
      }
      this.files.set(rel, source);
    }
    return this.files.get(rel);
  }
}

// ---- the lexer ----

const ID_START = /[A-Za-z_\u0080-\uffff]/;
const ID_PART = /[A-Za-z0-9_\u0080-\uffff]/;

/** The index after a string body that starts at `j` (just after the opening quote). */
function skipString(s, j) {
  while (j < s.length && s[j] !== '"') j += s[j] === '\\' ? 2 : 1;
  return j + 1;
}

/** The index after a block comment starting at `i` (`/*`), nested ones included. */
function skipBlockComment(s, i) {
  let depth = 1;
  let j = i + 2;
  while (j < s.length && depth > 0) {
    if (s[j] === '/' && s[j + 1] === '*') {
      depth++;
      j += 2;
    } else if (s[j] === '*' && s[j + 1] === '/') {
      depth--;
      j += 2;
    } else j++;
  }
  return j;
}

/** `'x'`, `'\n'` (a char literal: `lit`) or `'a` (a lifetime) starting at `i`. */
function quoteToken(s, i, out) {
  if (s[i + 1] === '\\') {
    // An escape: the character after the backslash is its own (`'\\'`, `'\''`), then up to the quote (`'\u{7f}'`).
    let j = i + 3;
    while (j < s.length && s[j] !== "'") j++;
    out.t = 'lit';
    return j + 1;
  }
  const width = s.codePointAt(i + 1) > 0xffff ? 2 : 1;
  if (s[i + 1 + width] === "'") {
    out.t = 'lit';
    return i + 2 + width;
  }
  let j = i + 1;
  while (j < s.length && ID_PART.test(s[j])) j++;
  out.t = 'lifetime';
  return j;
}

/** An identifier starting at `i`, or the raw string / byte string / byte char it prefixes. */
function wordToken(s, i, out) {
  let j = i;
  while (j < s.length && ID_PART.test(s[j])) j++;
  const w = s.slice(i, j);
  if ((w === 'r' || w === 'br') && (s[j] === '"' || (s[j] === '#' && /^#+"/.test(s.slice(j, j + 64))))) {
    let hashes = 0;
    while (s[j] === '#') {
      hashes++;
      j++;
    }
    const close = `"${'#'.repeat(hashes)}`;
    const e = s.indexOf(close, j + 1);
    out.t = 'lit';
    return e < 0 ? s.length : e + close.length;
  }
  if (w === 'b' && s[j] === "'") return quoteToken(s, j, out);
  if (w === 'b' && s[j] === '"') {
    out.t = 'lit';
    return skipString(s, j + 1);
  }
  out.t = 'id';
  out.w = w;
  return j;
}

/**
 * The token starting at `i`: sets `out.t` (`ws` for blanks and comments, `lit`, `lifetime`, `id`
 * or `p` for one punctuation character, with `out.w` its text) and returns the index after it.
 */
export function nextToken(s, i, out) {
  const c = s[i];
  if (c === '/' && s[i + 1] === '/') {
    const e = s.indexOf('\n', i);
    out.t = 'ws';
    return e < 0 ? s.length : e;
  }
  if (c === '/' && s[i + 1] === '*') {
    out.t = 'ws';
    return skipBlockComment(s, i);
  }
  if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || /\s/.test(c)) {
    out.t = 'ws';
    return i + 1;
  }
  if (c === '"') {
    out.t = 'lit';
    return skipString(s, i + 1);
  }
  if (c === "'") return quoteToken(s, i, out);
  if (ID_START.test(c)) return wordToken(s, i, out);
  out.t = 'p';
  out.w = c;
  return i + 1;
}

/**
 * The index of the last character of an item whose name ends at `idx`. `mode`: `block` for
 * fn, struct, enum, trait, mod, union, macro (ends at its body's closing brace, or at a `;` at
 * depth 0: `fn f();`, `struct S(u8);`), `semi` for const, static and type alias (ends at `;`),
 * `variant` for an enum variant (ends at `,` or at the enum's own closing brace).
 */
export function itemEnd(s, idx, mode) {
  const stack = [];
  const out = {};
  let i = idx;
  let last = idx;
  while (i < s.length) {
    const j = nextToken(s, i, out);
    if (out.t === 'p') {
      const c = out.w;
      if (c === '(' || c === '[' || c === '{') stack.push(c);
      else if (c === ')' || c === ']' || c === '}') {
        if (stack.length === 0) return last; // the enclosing enum's brace closes a last variant
        const open = stack.pop();
        if (stack.length === 0 && open === '{' && mode !== 'semi') return j - 1;
      } else if (c === ';' && stack.length === 0) return i;
      else if (c === ',' && stack.length === 0 && mode === 'variant') return i;
    }
    if (out.t !== 'ws') last = j - 1;
    i = j;
  }
  return s.length - 1;
}

/**
 * Whether the name ending at `idx` is called: the next token is `(`, or `::<…>` then `(`
 * (comments and blanks allowed). save-analysis does not tell a call from a mention, so
 * `iter.map(Self::f)` is a reference of `f` and no call.
 */
export function isCallSite(s, idx) {
  const out = {};
  let i = idx;
  const skipBlanks = () => {
    while (i < s.length) {
      const j = nextToken(s, i, out);
      if (out.t !== 'ws') return;
      i = j;
    }
  };
  skipBlanks();
  if (s.startsWith('::', i)) {
    i += 2;
    skipBlanks();
    if (s[i] !== '<') return false;
    let depth = 0;
    while (i < s.length) {
      const j = nextToken(s, i, out);
      if (out.t === 'p' && out.w === '<') depth++;
      else if (out.t === 'p' && out.w === '>' && s[i - 1] !== '-') {
        depth--;
        if (depth === 0) {
          i = j;
          break;
        }
      }
      i = j;
    }
    skipBlanks();
  }
  return s[i] === '(';
}

/**
 * The `macro_rules!` definitions of every `.rs` file under `root` (`target*` and hidden
 * directories left out): `{ rel, name, start, end }`, lines 1-based. Their bodies are tokens
 * to rustc until expanded, so save-analysis says nothing about the calls written in them.
 */
export function macroRulesRegions(root, sources) {
  const regions = [];
  const walk = (dir, relDir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name === 'target' || e.name.startsWith('target-') || e.name.startsWith('.')) continue;
      const rel = relDir ? `${relDir}/${e.name}` : e.name;
      if (e.isDirectory()) walk(join(dir, e.name), rel);
      else if (e.isFile() && e.name.endsWith('.rs')) regions.push(...macroRulesIn(rel, sources.get(rel)));
    }
  };
  walk(root, '');
  return regions;
}

function macroRulesIn(rel, f) {
  if (!f) return [];
  const found = [];
  const re = /macro_rules!\s*([A-Za-z_][A-Za-z0-9_]*)/g;
  for (let m = re.exec(f.text); m; m = re.exec(f.text)) {
    const nameIdx = m.index + m[0].length - m[1].length;
    const line = f.lineOf(nameIdx);
    if (f.text.slice(f.lineStart[line], nameIdx).includes('//')) continue; // mentioned in a comment
    const end = itemEnd(f.text, m.index + m[0].length, 'block');
    found.push({ rel, name: m[1], start: line, end: f.lineOf(end) });
  }
  return found;
}
