/**
 * Whether an SPDX licence expression is allowed by a list of SPDX ids: `A OR B` needs one
 * side allowed, `A AND B` both, `A WITH exception` is judged by `A`, parentheses group; ids
 * compare without case, and a trailing `+` (`GPL-2.0+`) is the id itself. `*` in `allowed`
 * allows anything; a missing licence (`undefined`) is allowed only when `allowed` holds
 * `NOASSERTION`. An expression that does not parse is not allowed.
 *
 * @example
 * ```ts
 * licenceAllowed('(MIT OR GPL-3.0-only)', ['MIT']); // true
 * licenceAllowed('MIT AND GPL-3.0-only', ['MIT']); // false
 * ```
 */
export function licenceAllowed(expression: string | undefined, allowed: readonly string[]): boolean {
  const ids = new Set(allowed.map((a) => a.toLowerCase()));
  if (ids.has('*')) return true;
  if (expression === undefined || expression.trim() === '') return ids.has('noassertion');
  const tokens = expression.match(/\(|\)|[^\s()]+/g) ?? [];
  let i = 0;
  const peek = (): string | undefined => tokens[i];
  const fail = (): never => {
    throw new SyntaxError(expression);
  };
  const atom = (): boolean => {
    const t = tokens[i++];
    if (t === undefined) return fail();
    if (t === '(') {
      const v = or();
      if (tokens[i++] !== ')') fail();
      return v;
    }
    if (/^(and|or|with|\))$/i.test(t)) return fail();
    const ok = ids.has(t.replace(/\+$/, '').toLowerCase()) || ids.has(t.toLowerCase());
    if (peek()?.toLowerCase() === 'with') {
      i += 1;
      if (tokens[i++] === undefined) fail();
    }
    return ok;
  };
  const and = (): boolean => {
    let v = atom();
    while (peek()?.toLowerCase() === 'and') {
      i += 1;
      v = atom() && v;
    }
    return v;
  };
  const or = (): boolean => {
    let v = and();
    while (peek()?.toLowerCase() === 'or') {
      i += 1;
      v = and() || v;
    }
    return v;
  };
  try {
    const v = or();
    return i === tokens.length && v;
  } catch {
    return false;
  }
}

/**
 * The licences `lang install` accepts when `registry.allowedLicences` is not set: permissive
 * licences and the MPL, which cover every first-party plugin and what it bundles.
 *
 * @example
 * ```ts
 * DEFAULT_ALLOWED_LICENCES.includes('Apache-2.0'); // true
 * ```
 */
export const DEFAULT_ALLOWED_LICENCES: readonly string[] = [
  '0BSD',
  'Apache-2.0',
  'BlueOak-1.0.0',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'CC0-1.0',
  'ISC',
  'MIT',
  'MPL-2.0',
  'Python-2.0',
  'Unlicense',
  'Zlib',
];
