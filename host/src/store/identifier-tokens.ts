/**
 * The identifier tokenizer shared by the FTS index and the queries run against it.
 *
 * SQLite's FTS5 tokenizers cannot split `parseHTTPResponse` into words, and better-sqlite3
 * cannot register a custom FTS5 tokenizer from JavaScript (its API only exposes scalar,
 * aggregate and table-valued functions). So the split happens here, in JS, on BOTH sides:
 * the index stores the pre-split tokens joined by spaces (FTS5's `unicode61` tokenizer then
 * only has to cut at the spaces), and every query goes through the same function, so
 * `parseHttpResponse`, `parse_http_response` and `parse-http-response` meet in the middle.
 */

// One alternative per token shape, tried left to right at each position:
//  - an upper-case run followed by a capitalised word: the `HTTP` in `HTTPResponse`
//  - an optionally capitalised lower-case word: `parse`, `Response`
//  - an upper-case run at the end or before a digit/separator: `ID` in `userID`
//  - a digit run: `2` in `parseHTTPResponse2`
//  - letters without case (CJK, …), with their combining marks
const TOKEN = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?[\p{Ll}\p{M}]+|\p{Lu}[\p{Lu}\p{M}]*|\p{N}+|[\p{Lo}\p{Lt}\p{Lm}][\p{Lo}\p{Lt}\p{Lm}\p{M}]*/gu;

/**
 * Splits identifiers and paths into lower-case word tokens: camelCase, PascalCase,
 * snake_case, kebab-case, dotted and slashed paths, and digit runs all split the same way.
 * Everything that is not a letter or a digit separates tokens.
 *
 * @example
 * ```ts
 * identifierTokens('parseHTTPResponse2'); // ['parse', 'http', 'response', '2']
 * identifierTokens('__init__');           // ['init']
 * identifierTokens('src/auth/jwt.ts');    // ['src', 'auth', 'jwt', 'ts']
 * ```
 * `maxTokens` stops early (for long text such as skeletons).
 */
export function identifierTokens(text: string, maxTokens = Infinity): string[] {
  const ascii = asciiTokens(text, maxTokens);
  if (ascii) return ascii;
  const out: string[] = [];
  for (const m of text.normalize('NFC').matchAll(TOKEN)) {
    if (out.length >= maxTokens) break;
    out.push(m[0].toLowerCase());
  }
  return out;
}

const isUpper = (c: number) => c >= 65 && c <= 90;
const isLower = (c: number) => c >= 97 && c <= 122;
const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * {@link TOKEN} for ASCII text, by hand: about 3× faster than the Unicode expression, and most
 * source lines are ASCII. Undefined when a non-ASCII character could be part of a token (then
 * the expression decides).
 */
function asciiTokens(s: string, maxTokens: number): string[] | undefined {
  const out: string[] = [];
  const n = s.length;
  // Where a run of characters that `inRun` accepts ends.
  const runEnd = (from: number, inRun: (c: number) => boolean): number => {
    let e = from;
    while (e < n && inRun(s.charCodeAt(e))) e++;
    return e;
  };
  let p = 0;
  while (p < n && out.length < maxTokens) {
    const c = s.charCodeAt(p);
    if (c > 127) return undefined;
    let end: number;
    if (isUpper(c)) {
      const e = runEnd(p + 1, isUpper);
      const next = e < n ? s.charCodeAt(e) : -1;
      if (next > 127) return undefined;
      if (e - p >= 2 && isLower(next))
        end = e - 1; // the HTTP of HTTPResponse
      else if (isLower(next))
        end = runEnd(e + 1, isLower); // Response
      else end = e; // ID
    } else if (isLower(c)) end = runEnd(p + 1, isLower);
    else if (isDigit(c)) end = runEnd(p + 1, isDigit);
    else {
      p++;
      continue;
    }
    if (end < n && s.charCodeAt(end) > 127) return undefined;
    out.push(s.slice(p, end).toLowerCase());
    p = end;
  }
  return out;
}

/** The tokens of `text` (at most `maxTokens`) joined by single spaces: what the FTS index stores for it. */
export function tokenDocument(text: string | null | undefined, maxTokens = Infinity): string {
  return text ? identifierTokens(text, maxTokens).join(' ') : '';
}

/**
 * The tokens of a text line by line, each line split once however many documents take it:
 * a file's whole text and each definition's own lines are both made of its lines. A token
 * never spans a line break, so the tokens of a range of lines are those of the text of
 * those lines.
 */
export class LineTokens {
  private readonly lines: string[];
  private readonly tokens: (string[] | undefined)[];

  constructor(text: string) {
    this.lines = text.split(/\r?\n/);
    this.tokens = new Array<string[] | undefined>(this.lines.length);
  }

  /** Number of lines. */
  get count(): number {
    return this.lines.length;
  }

  /** The document ({@link tokenDocument}) of the 0-based lines `from` ≤ i ≤ `to` that `include(i)` keeps. */
  document(from: number, to: number, maxTokens = Infinity, include: (line: number) => boolean = () => true): string {
    const out: string[] = [];
    for (let i = Math.max(0, from); i <= to && i < this.lines.length && out.length < maxTokens; i++) {
      if (!include(i)) continue;
      const line = (this.tokens[i] ??= identifierTokens(this.lines[i]!));
      for (const t of line) {
        if (out.length >= maxTokens) break;
        out.push(t);
      }
    }
    return out.join(' ');
  }
}
