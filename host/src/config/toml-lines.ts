/**
 * Where each key of a TOML document is defined. smol-toml gives values but no positions, and a
 * configuration error has to name `file:line`; this scanner walks the text of a document that
 * smol-toml already accepted and records the line of every key, table header and inline-table key.
 */

/** Identity of a key path (segments as written, unescaped), usable as a map key. */
export function keyPathId(segments: readonly string[]): string {
  return JSON.stringify(segments);
}

/** The 1-based line of every key path defined in `text` (first definition wins; dotted keys also record their prefixes). */
export function tomlKeyLines(text: string): Map<string, number> {
  const s = new TomlScanner(text);
  s.document();
  return s.lines;
}

/** The line of `segments`, or of its closest defined parent when the key itself was not found. */
export function lineOfKey(lines: ReadonlyMap<string, number>, segments: readonly string[]): number | undefined {
  for (let n = segments.length; n > 0; n--) {
    const line = lines.get(keyPathId(segments.slice(0, n)));
    if (line !== undefined) return line;
  }
  return undefined;
}

const BARE_KEY = /[A-Za-z0-9_-]/;
const SIMPLE_ESCAPES: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', e: '\u001b', '"': '"', '\\': '\\' };

class TomlScanner {
  readonly lines = new Map<string, number>();
  private i = 0;
  private line = 1;

  constructor(private readonly s: string) {}

  document(): void {
    let table: string[] = [];
    while (this.i < this.s.length) {
      const start = this.i;
      this.skipBlank();
      if (this.i >= this.s.length) break;
      const line = this.line;
      if (this.s[this.i] === '[') {
        const arrayTable = this.s[this.i + 1] === '[';
        this.i += arrayTable ? 2 : 1;
        table = this.key();
        this.record(table, line);
        this.skipSpaces();
        this.i += arrayTable ? 2 : 1;
      } else {
        const key = [...table, ...this.key()];
        this.skipSpaces();
        if (this.s[this.i] === '=') this.i++;
        this.skipSpaces();
        this.record(key, line);
        this.value(key);
      }
      if (this.i === start) this.step();
    }
  }

  private record(path: string[], line: number): void {
    for (let n = 1; n <= path.length; n++) {
      const id = keyPathId(path.slice(0, n));
      if (!this.lines.has(id)) this.lines.set(id, line);
    }
  }

  /** A dotted key: bare, "basic" or 'literal' segments separated by dots. */
  private key(): string[] {
    const segments: string[] = [];
    for (;;) {
      this.skipSpaces();
      const c = this.s[this.i];
      if (c === '"') segments.push(this.basicString());
      else if (c === "'") segments.push(this.literalString());
      else {
        const from = this.i;
        while (this.i < this.s.length && BARE_KEY.test(this.s[this.i] ?? '')) this.i++;
        segments.push(this.s.slice(from, this.i));
      }
      this.skipSpaces();
      if (this.s[this.i] !== '.') return segments;
      this.i++;
    }
  }

  /** Skips one value, recording the keys of inline tables under `path`. */
  private value(path: string[] | undefined): void {
    const rest = this.s.slice(this.i, this.i + 3);
    if (rest === '"""' || rest === "'''") {
      const quote = rest[0] ?? '"';
      this.i += 3;
      while (this.i < this.s.length && !this.s.startsWith(rest, this.i)) {
        if (quote === '"' && this.s[this.i] === '\\') this.step();
        this.step();
      }
      this.i += 3;
      // Up to two quotes may close the string's content right before the delimiter.
      for (let k = 0; k < 2 && this.s[this.i] === quote; k++) this.i++;
      return;
    }
    const c = this.s[this.i];
    if (c === '"') this.basicString();
    else if (c === "'") this.literalString();
    else if (c === '[') {
      this.i++;
      for (;;) {
        const start = this.i;
        this.skipBlank();
        if (this.i >= this.s.length || this.s[this.i] === ']') break;
        this.value(undefined);
        this.skipBlank();
        if (this.s[this.i] === ',') this.i++;
        if (this.i === start) this.step();
      }
      this.i++;
    } else if (c === '{') {
      this.i++;
      for (;;) {
        const start = this.i;
        this.skipBlank();
        if (this.i >= this.s.length || this.s[this.i] === '}') break;
        const line = this.line;
        const key = this.key();
        this.skipSpaces();
        if (this.s[this.i] === '=') this.i++;
        this.skipSpaces();
        if (path) this.record([...path, ...key], line);
        this.value(path ? [...path, ...key] : undefined);
        this.skipBlank();
        if (this.s[this.i] === ',') this.i++;
        if (this.i === start) this.step();
      }
      this.i++;
    } else {
      // Numbers, booleans, dates (which may contain a space): up to the next delimiter.
      while (this.i < this.s.length && !',]}#\r\n'.includes(this.s[this.i] ?? '')) this.i++;
    }
  }

  private basicString(): string {
    let out = '';
    this.i++;
    while (this.i < this.s.length && this.s[this.i] !== '"' && this.s[this.i] !== '\n') {
      const c = this.s[this.i++] ?? '';
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = this.s[this.i++] ?? '';
      const hexLength = e === 'u' ? 4 : e === 'U' ? 8 : e === 'x' ? 2 : 0;
      if (hexLength > 0) {
        out += String.fromCodePoint(parseInt(this.s.slice(this.i, this.i + hexLength), 16) || 0xfffd);
        this.i += hexLength;
      } else out += SIMPLE_ESCAPES[e] ?? e;
    }
    this.i++;
    return out;
  }

  private literalString(): string {
    const from = ++this.i;
    while (this.i < this.s.length && this.s[this.i] !== "'" && this.s[this.i] !== '\n') this.i++;
    return this.s.slice(from, this.i++);
  }

  private skipSpaces(): void {
    while (this.s[this.i] === ' ' || this.s[this.i] === '\t') this.i++;
  }

  /** Whitespace, newlines and comments. */
  private skipBlank(): void {
    for (;;) {
      const c = this.s[this.i];
      if (c === ' ' || c === '\t' || c === '\r' || c === '\n') this.step();
      else if (c === '#') while (this.i < this.s.length && this.s[this.i] !== '\n') this.i++;
      else return;
    }
  }

  private step(): void {
    if (this.s[this.i] === '\n') this.line++;
    this.i++;
  }
}
