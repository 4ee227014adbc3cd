/**
 * Forward references: the text of a string annotation (`"Optional[Session]"`) read into an
 * {@link Expr}. Only what annotations use: dotted names, subscripts, `|`, `None`, nested strings.
 */
import type { Expr } from './module-ir.js';

/** Names in a forward reference see every binding of their scope (annotations are evaluated late). */
export const LATE = Number.MAX_SAFE_INTEGER;

/**
 * @returns the expression, or `{ k: 'unknown' }` when the text is not an annotation
 *
 * @example
 * ```ts
 * parseAnnotationString('List["a.B"] | None'); // { k: 'union', items: [{ k: 'sub', … }, { k: 'lit', t: 'none' }] }
 * ```
 */
export function parseAnnotationString(text: string): Expr {
  const tokens = text.match(/[A-Za-z_][A-Za-z0-9_]*|\.\.\.|"[^"]*"|'[^']*'|[.[\],|]/g) ?? [];
  let i = 0;
  const peek = () => tokens[i];
  const union = (): Expr => {
    const items = [primary()];
    while (peek() === '|') {
      i++;
      items.push(primary());
    }
    return items.length === 1 ? items[0]! : { k: 'union', items };
  };
  const primary = (): Expr => {
    const t = tokens[i++];
    if (t === undefined) return { k: 'unknown' };
    if (t === 'None') return { k: 'lit', t: 'none' };
    if (t.startsWith('"') || t.startsWith("'")) return parseAnnotationString(t.slice(1, -1));
    if (!/^[A-Za-z_]/.test(t)) return { k: 'unknown' };
    let e: Expr = { k: 'name', id: t, pos: LATE };
    while (peek() === '.' && /^[A-Za-z_]/.test(tokens[i + 1] ?? '')) {
      e = { k: 'attr', obj: e, name: tokens[i + 1]! };
      i += 2;
    }
    if (peek() === '[') {
      i++;
      const idx: Expr[] = [];
      while (i < tokens.length && peek() !== ']') {
        if (peek() === ',') {
          i++;
          continue;
        }
        if (peek() === '[') {
          // Callable[[A, B], R]: the argument list is skipped.
          let depth = 0;
          do {
            if (peek() === '[') depth++;
            else if (peek() === ']') depth--;
            i++;
          } while (i < tokens.length && depth > 0);
          idx.push({ k: 'unknown' });
          continue;
        }
        idx.push(union());
      }
      i++;
      e = { k: 'sub', obj: e, idx };
    }
    return e;
  };
  const e = union();
  return i >= tokens.length ? e : { k: 'unknown' };
}
