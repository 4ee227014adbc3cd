/**
 * tree-sitter-rust (tree-sitter-wasms@0.1.13) lexes a file's first token as a shebang when it
 * starts with `#!`, up to the end of its line, also when it is an inner attribute: in
 * `*\/#![cfg_attr(feature = "std", doc = "```")] /*!` (regex-automata's lib.rs) the `/*!` that
 * opens the next doc comment is eaten with it, and the rest of the comment is read as code (150
 * syntax errors and no `mod` declarations). Rust reads `#![` as an attribute, never a shebang.
 *
 * The grammar is given the text with the file's leading inner attributes blanked out (once the
 * first is gone the next one is first), spaces for every character but line breaks, so every
 * other byte and line stays where it was.
 */

/** A leading inner attribute: where it is and what it says (`cfg_attr(feature = "std", doc = "x")`). */
export interface LeadingAttribute {
  start: number;
  end: number;
  /** Its content between `#![` and `]`, whitespace collapsed. */
  content: string;
}

/** The inner attributes `text` starts with (after comments and whitespace), in order. */
export function leadingInnerAttributes(text: string): LeadingAttribute[] {
  const found: LeadingAttribute[] = [];
  for (let at = 0; ;) {
    const attr = innerAttributeAt(text, at);
    if (!attr) return found;
    found.push(attr);
    at = attr.end;
  }
}

/** `text` with its leading inner attributes blanked out (the same text when there are none). */
export function withoutLeadingAttributes(text: string, attrs: readonly LeadingAttribute[] = leadingInnerAttributes(text)): string {
  if (attrs.length === 0) return text;
  let out = '';
  let at = 0;
  for (const a of attrs) {
    out += text.slice(at, a.start) + text.slice(a.start, a.end).replace(/[^\r\n]/g, ' ');
    at = a.end;
  }
  return out + text.slice(at);
}

/** The inner attribute that is the first token of `text` from `from` on (after comments and whitespace), if any. */
function innerAttributeAt(text: string, from: number): LeadingAttribute | undefined {
  const start = firstTokenAt(text, from);
  if (start === undefined || !text.startsWith('#!', start)) return undefined;
  let i = start + 2;
  while (i < text.length && /[ \t\r\n]/.test(text[i]!)) i++;
  if (text[i] !== '[') return undefined;
  const open = i;
  let depth = 0;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || (c === 'r' && /^r#*"/.test(text.slice(i, i + 8)))) {
      i = stringEnd(text, i);
      continue;
    }
    // A char literal (`']'`), not a lifetime.
    const ch = c === "'" ? /^'(\\.[^']{0,8}|[^\\'])'/.exec(text.slice(i, i + 12)) : null;
    if (ch) {
      i += ch[0].length - 1;
      continue;
    }
    if (c === '[') depth++;
    else if (c === ']' && --depth === 0) {
      return {
        start,
        end: i + 1,
        content: text
          .slice(open + 1, i)
          .replace(/\s+/g, ' ')
          .trim(),
      };
    }
  }
  return undefined;
}

/** Offset of the first character that is not whitespace or a comment (block comments nest). */
function firstTokenAt(text: string, from: number): number | undefined {
  let i = from;
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n' || c === '\uFEFF') i++;
    else if (text.startsWith('//', i)) {
      const e = text.indexOf('\n', i);
      if (e < 0) return undefined;
      i = e + 1;
    } else if (text.startsWith('/*', i)) {
      let depth = 0;
      while (i < text.length) {
        if (text.startsWith('/*', i)) {
          depth++;
          i += 2;
        } else if (text.startsWith('*/', i)) {
          i += 2;
          if (--depth === 0) break;
        } else i++;
      }
      if (depth > 0) return undefined;
    } else return i;
  }
  return undefined;
}

/** The index of the last character of the string opening at `i` (`"…"`, or raw `r#"…"#`). */
function stringEnd(text: string, i: number): number {
  const raw = /^r(#*)"/.exec(text.slice(i, i + 8));
  if (raw) {
    const close = `"${raw[1]}`;
    const e = text.indexOf(close, i + raw[0].length);
    return e < 0 ? text.length : e + close.length - 1;
  }
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === '"') return j;
  }
  return text.length;
}
