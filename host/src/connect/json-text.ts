/**
 * JSON text as a person edits it: where a syntax error is (JSON.parse does not always say), which
 * numbers would change if the file were parsed and written again, and how to write it back.
 */

/** A position in a text, 1-based, for `file:line:col` messages. */
export interface TextPosition {
  line: number;
  column: number;
}

/** What {@link scanJson} found: the first syntax error, and numbers a rewrite would not keep. */
export interface JsonScan {
  error?: { offset: number; message: string };
  /** Integers beyond 2^53 and numbers out of the double range: JSON.parse changes them. */
  lossyNumbers: { offset: number; text: string }[];
}

/** The 1-based line and column of `offset` in `text` (columns count UTF-16 code units). */
export function positionAt(text: string, offset: number): TextPosition {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

class ScanStop extends Error {
  constructor(
    readonly offset: number,
    readonly why: string,
  ) {
    super(why);
  }
}

/**
 * Checks `text` against the JSON grammar (RFC 8259) and returns the first error with its offset,
 * so a broken configuration file can be reported as `file:line:col`. Also lists numbers that a
 * parse-and-stringify round trip would alter.
 */
export function scanJson(text: string): JsonScan {
  const lossyNumbers: JsonScan['lossyNumbers'] = [];
  let i = 0;
  // Explicitly typed so that TypeScript treats a call as the end of the branch.
  const fail: (why: string, at?: number) => never = (why, at = i) => {
    throw new ScanStop(at, why);
  };
  /** What stands at `at`, as a noun phrase for "expected X, found …". */
  const describe = (at: number): string => {
    if (at >= text.length) return 'the end of the file';
    const c = text[at] ?? '';
    if (c === '/' && (text[at + 1] === '/' || text[at + 1] === '*')) return 'a comment (JSON has no comments)';
    if (c === "'") return 'a single quote (JSON strings use double quotes)';
    return JSON.stringify(c);
  };
  const ws = (): void => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
      else break;
    }
  };
  const literal = (word: string): void => {
    if (text.startsWith(word, i) && !/[A-Za-z0-9_$]/.test(text[i + word.length] ?? '')) i += word.length;
    else fail(`expected a value, found ${describe(i)}`);
  };
  const string = (): void => {
    const start = i;
    i++; // opening quote
    for (;;) {
      if (i >= text.length) fail('a string is not closed', start);
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) fail('a string cannot contain a raw line break or control character');
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('\\u must be followed by four hex digits');
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else fail(`invalid escape "\\${e ?? ''}"`);
      } else i++;
    }
  };
  const number = (): void => {
    const start = i;
    const m = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 400));
    if (!m) fail('invalid number');
    const tok = m[0];
    i += tok.length;
    if (/^[0-9.eE+-]$/.test(text[i] ?? '')) fail('invalid number', start);
    const value = Number(tok);
    if (!Number.isFinite(value) || (!/[.eE]/.test(tok) && !Number.isSafeInteger(value))) lossyNumbers.push({ offset: start, text: tok });
  };
  const value = (depth: number): void => {
    if (depth > 512) fail('nested too deeply');
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] === '}') fail('trailing comma before "}"');
        if (/[A-Za-z_$]/.test(text[i] ?? '')) fail('property names must be in double quotes');
        if (text[i] !== '"') fail(`expected a property name, found ${describe(i)}`);
        string();
        ws();
        if (text[i] !== ':') fail(`expected ":" after a property name, found ${describe(i)}`);
        i++;
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail(`expected "," or "}" after a property value, found ${describe(i)}`);
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] === ']') fail('trailing comma before "]"');
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail(`expected "," or "]" after an array element, found ${describe(i)}`);
      }
    }
    if (c === '"') return string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    fail(`expected a value, found ${describe(i)}`);
  };

  try {
    value(0);
    ws();
    if (i < text.length) fail(`expected the end of the file after the JSON value, found ${describe(i)}`);
    return { lossyNumbers };
  } catch (e) {
    if (e instanceof ScanStop) return { error: { offset: e.offset, message: e.why }, lossyNumbers };
    throw e;
  }
}

/** Formats a JSON document the way travsr writes configuration files: 2-space indentation, final newline. */
export function formatJson(doc: unknown, eol: '\n' | '\r\n' = '\n'): string {
  const text = `${JSON.stringify(doc, null, 2)}\n`;
  return eol === '\n' ? text : text.replace(/\n/g, '\r\n');
}

/** Structural equality of JSON values; object key order does not matter. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, k) => jsonEqual(x, b[k]));
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao);
  return ak.length === Object.keys(bo).length && ak.every((k) => Object.hasOwn(bo, k) && jsonEqual(ao[k], bo[k]));
}
