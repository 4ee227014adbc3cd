/**
 * The values a build script computes as build-script-eval.ts follows it: strings, numbers,
 * booleans, `Some`/`Ok` and `None`/`Err`, lists and tuples, closures and the script's functions,
 * and `unknown` for anything it cannot know. A plain string also stands for `Ok(s)` / `Some(s)`
 * (`env::var(…)` read as its value).
 */
import type { Node } from 'web-tree-sitter';

/** A value the script computes; `unknown` when it cannot be known. */
export type Value =
  | { k: 'str'; v: string }
  | { k: 'num'; v: number }
  | { k: 'bool'; v: boolean }
  | { k: 'some'; v: Value }
  | { k: 'none' }
  | { k: 'list'; v: Value[] }
  | { k: 'unit' }
  /** A closure (its parameters, body and the scope it was made in), or a function of the script (`item`). */
  | { k: 'fn'; params: Node[]; body: Node; scope: Scope | undefined; item?: Node }
  /** A std method named as a function (`String::as_str` in `.map(String::as_str)`): applied, it is called on its first argument. */
  | { k: 'method'; name: string }
  /** An `autocfg::AutoCfg` (build-script-autocfg.ts). */
  | { k: 'autocfg' }
  /** Not known; `version`: it is rustc's (minor) version, which compares as the assumed compiler's. */
  | { k: 'unknown'; version?: boolean };

export const UNKNOWN: Value = { k: 'unknown' };
export const UNIT: Value = { k: 'unit' };
export const NONE: Value = { k: 'none' };
/** Longest string followed: a script doubling a string in a loop is not run to exhaustion. */
const MAX_STRING = 1 << 16;
export const str = (v: string): Value => (v.length > MAX_STRING ? UNKNOWN : { k: 'str', v });
export const bool = (v: boolean): Value => ({ k: 'bool', v });
export const some = (v: Value): Value => ({ k: 'some', v });

/** Variables of one block (or function), chained to the enclosing one. */
export class Scope {
  private readonly vars = new Map<string, Value>();
  constructor(readonly parent: Scope | undefined) {}
  get(name: string): Value | undefined {
    return this.vars.get(name) ?? this.parent?.get(name);
  }
  set(name: string, v: Value): void {
    this.vars.set(name, v);
  }
  /** Assigns to the nearest binding of `name`; false when there is none. */
  assign(name: string, v: Value): boolean {
    if (this.vars.has(name)) {
      this.vars.set(name, v);
      return true;
    }
    return this.parent?.assign(name, v) ?? false;
  }
}

/** A string or char literal's value (escapes read). */
export function unquote(n: Node): string {
  const t = n.text;
  if (n.type === 'raw_string_literal') {
    const m = /^b?r(#*)"([\s\S]*)"\1$/.exec(t);
    return m ? m[2]! : '';
  }
  const body = n.type === 'char_literal' ? t.replace(/^b?'/, '').replace(/'$/, '') : t.replace(/^b?"/, '').replace(/"$/, '');
  return body.replace(/\\(u\{([0-9a-fA-F]+)\}|x([0-9a-fA-F]{2})|\n\s*|.)/g, (_all, e: string, u?: string, x?: string) => {
    if (u) return String.fromCodePoint(parseInt(u, 16));
    if (x) return String.fromCharCode(parseInt(x, 16));
    if (e.startsWith('\n')) return '';
    return ({ n: '\n', t: '\t', r: '\r', '0': '\0', '\\': '\\', '"': '"', "'": "'" } as Record<string, string>)[e] ?? e;
  });
}

export function eq(a: Value, b: Value): Value {
  if (a.k === 'unknown' || b.k === 'unknown') return UNKNOWN;
  if ((a.k === 'str' || a.k === 'num' || a.k === 'bool') && a.k === b.k) return bool(a.v === b.v);
  if (a.k === 'none' || b.k === 'none')
    return a.k === 'some' || b.k === 'some' || (a.k === 'none' && b.k === 'none') ? bool(a.k === b.k) : UNKNOWN;
  if (a.k === 'some' && b.k === 'some') return eq(a.v, b.v);
  return UNKNOWN;
}

export function withNe(name: string, e: Value): Value {
  return e.k === 'bool' ? bool(name === 'eq' ? e.v : !e.v) : UNKNOWN;
}

export function same(a: Value, b: Value): boolean {
  if (a.k === 'unknown' || a.k === 'fn' || a.k !== b.k) return false;
  if (a.k === 'str' || a.k === 'num' || a.k === 'bool') return a.v === (b as typeof a).v;
  if (a.k === 'some') return same(a.v, (b as typeof a).v);
  if (a.k === 'list') {
    const bl = (b as typeof a).v;
    return a.v.length === bl.length && a.v.every((x, i) => same(x, bl[i]!));
  }
  return true; // unit, none
}

export function arithmetic(op: string, l: Value, r: Value): Value {
  if (op === '+' && l.k === 'str' && r.k === 'str') return str(l.v + r.v);
  if (l.k !== 'num' || r.k !== 'num') return UNKNOWN;
  switch (op) {
    case '+':
      return { k: 'num', v: l.v + r.v };
    case '-':
      return { k: 'num', v: l.v - r.v };
    case '*':
      return { k: 'num', v: l.v * r.v };
    case '/':
      return r.v === 0 ? UNKNOWN : { k: 'num', v: Math.trunc(l.v / r.v) };
    case '%':
      return r.v === 0 ? UNKNOWN : { k: 'num', v: l.v % r.v };
    default:
      return UNKNOWN;
  }
}

/**
 * `format!`'s string from its format and arguments: `{}`, `{0}`, `{name}` (from `named`, else
 * `lookup`) and `{{`/`}}`; unknown when an argument is, or for a rendering not followed (`{:?}`).
 */
export function renderFormat(
  fmt: Value,
  positional: readonly Value[],
  named: ReadonlyMap<string, Value>,
  lookup: (name: string) => Value | undefined,
): Value {
  if (fmt.k !== 'str') return UNKNOWN;
  let next = 0;
  let out = '';
  const s = fmt.v;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if ((c === '{' || c === '}') && s[i + 1] === c) {
      out += c;
      i++;
      continue;
    }
    if (c !== '{') {
      out += c;
      continue;
    }
    const end = s.indexOf('}', i);
    if (end < 0) return UNKNOWN;
    const [spec = '', style] = s.slice(i + 1, end).split(':');
    if (style !== undefined && style !== '') return UNKNOWN;
    const key = spec.trim();
    const v = key === '' ? positional[next++] : /^\d+$/.test(key) ? positional[Number(key)] : (named.get(key) ?? lookup(key));
    if (!v || (v.k !== 'str' && v.k !== 'num' && v.k !== 'bool')) return UNKNOWN;
    out += String(v.v);
    i = end;
  }
  return str(out);
}
