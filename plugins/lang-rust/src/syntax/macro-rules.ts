/**
 * A small `macro_rules!` expander for the items a macro writes (`define_bool!(0, is_utf8,
 * set_utf8);` making two methods): token trees, matching of fragments (`$x:ident`, `$e:expr`,
 * `$t:ty`, `$(…),*` repetitions …) and transcription. Fragments that take more than one token
 * (`expr`, `ty`, `path` …) end where the pattern's next literal token is found at depth 0;
 * anything the matcher cannot follow makes the rule not match, and an unexpanded macro simply
 * adds no items.
 */

/** A token, or a delimited group of them. */
export type Token = { k: 'id' | 'lit' | 'punct' | 'life'; t: string } | { k: 'group'; open: string; tokens: Token[] };

const CLOSE: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
const MULTI_PUNCT = [
  '::',
  '=>',
  '->',
  '..=',
  '...',
  '..',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '^=',
  '&=',
  '|=',
  '<<=',
  '>>=',
  '<<',
  '>>',
];
/** Most tokens a transcription may produce (a runaway repetition stops here). */
const MAX_TOKENS = 20_000;

/** Splits Rust source into token trees (comments dropped). Undefined when delimiters do not balance. */
export function tokenize(s: string): Token[] | undefined {
  const root: Token[] = [];
  const stack: { open: string; tokens: Token[] }[] = [];
  let cur = root;
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '/' && s[i + 1] === '/') {
      const e = s.indexOf('\n', i);
      i = e < 0 ? s.length : e;
      continue;
    }
    if (c === '/' && s[i + 1] === '*') {
      const e = s.indexOf('*/', i + 2);
      i = e < 0 ? s.length : e + 2;
      continue;
    }
    if (c in CLOSE) {
      const g = { open: c, tokens: [] as Token[] };
      stack.push(g);
      cur.push({ k: 'group', open: c, tokens: g.tokens });
      cur = g.tokens;
      i++;
      continue;
    }
    if (c === ')' || c === ']' || c === '}') {
      const g = stack.pop();
      if (!g || CLOSE[g.open] !== c) return undefined;
      cur = stack.length > 0 ? stack[stack.length - 1]!.tokens : root;
      i++;
      continue;
    }
    if (c === '"' || ((c === 'b' || c === 'r') && /^(b?r#*"|b")/.test(s.slice(i, i + 4)))) {
      const m = /^(b?r)(#*)"/.exec(s.slice(i, i + 40));
      let j: number;
      if (m) {
        const close = `"${m[2]}`;
        const e = s.indexOf(close, i + m[0].length);
        j = e < 0 ? s.length : e + close.length;
      } else {
        j = s.indexOf('"', i) + 1;
        while (j < s.length && s[j] !== '"') j += s[j] === '\\' ? 2 : 1;
        j++;
      }
      cur.push({ k: 'lit', t: s.slice(i, j) });
      i = j;
      continue;
    }
    if (c === "'") {
      const ch = /^'(\\[^']{1,10}|[^\\'])'/u.exec(s.slice(i, i + 16));
      const lifetime = ch ? undefined : /^'[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(i, i + 256));
      if (ch || lifetime) {
        const text = (ch ?? lifetime)![0];
        cur.push({ k: ch ? 'lit' : 'life', t: text });
        i += text.length;
        continue;
      }
    }
    const id = /^(r#)?[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(i, i + 256));
    if (id) {
      cur.push({ k: 'id', t: id[0] });
      i += id[0].length;
      continue;
    }
    const num = /^[0-9][0-9A-Za-z_]*(\.[0-9][0-9A-Za-z_]*)?/.exec(s.slice(i, i + 64));
    if (num) {
      cur.push({ k: 'lit', t: num[0] });
      i += num[0].length;
      continue;
    }
    const p = MULTI_PUNCT.find((x) => s.startsWith(x, i)) ?? c;
    cur.push({ k: 'punct', t: p });
    i += p.length;
  }
  return stack.length === 0 ? root : undefined;
}

/** Tokens back to source text (spaced, which Rust's grammar accepts). */
export function render(tokens: readonly Token[]): string {
  return tokens
    .map((t) => {
      if (t.k !== 'group') return t.t;
      const inner = render(t.tokens);
      return `${t.open} ${inner ? `${inner} ` : ''}${CLOSE[t.open]}`;
    })
    .join(' ');
}

type Pat =
  | { p: 'tok'; tok: Token }
  | { p: 'group'; open: string; body: Pat[] }
  | { p: 'bind'; name: string; frag: string }
  | { p: 'rep'; body: Pat[]; sep?: Token; op: string };

/** What a fragment bound: its tokens, or one binding per run of a repetition. */
type Binding = Token[] | { rep: Binding[] };

/** Compiles a rule's matcher (the tokens inside its outer delimiters). */
function compile(tokens: readonly Token[]): Pat[] | undefined {
  const out: Pat[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.k === 'punct' && t.t === '$') {
      const n = tokens[i + 1];
      if (n?.k === 'id' && tokens[i + 2]?.k === 'punct' && (tokens[i + 2] as { t: string }).t === ':' && tokens[i + 3]?.k === 'id') {
        out.push({ p: 'bind', name: n.t, frag: (tokens[i + 3] as { t: string }).t });
        i += 3;
        continue;
      }
      if (n?.k === 'group' && n.open === '(') {
        const body = compile(n.tokens);
        if (!body) return undefined;
        let j = i + 2;
        let sep: Token | undefined;
        const opOf = (x: Token | undefined) => (x?.k === 'punct' && ['*', '+', '?'].includes(x.t) ? x.t : undefined);
        let op = opOf(tokens[j]);
        if (!op) {
          sep = tokens[j];
          op = opOf(tokens[j + 1]);
          j++;
        }
        if (!op) return undefined;
        out.push({ p: 'rep', body, ...(sep ? { sep } : {}), op });
        i = j;
        continue;
      }
      if (n?.k === 'id' && n.t === 'crate') {
        out.push({ p: 'tok', tok: { k: 'id', t: 'crate' } });
        i++;
        continue;
      }
      return undefined;
    }
    if (t.k === 'group') {
      const body = compile(t.tokens);
      if (!body) return undefined;
      out.push({ p: 'group', open: t.open, body });
    } else out.push({ p: 'tok', tok: t });
  }
  return out;
}

const same = (a: Token, b: Token) => a.k !== 'group' && b.k !== 'group' && a.t === b.t;

/** The first literal token a pattern sequence starts with, if any (where a greedy fragment stops). */
function firstLiteral(pats: readonly Pat[], from: number, fallback?: Token): Token | undefined {
  const p = pats[from];
  if (!p) return fallback;
  if (p.p === 'tok') return p.tok;
  if (p.p === 'rep') return p.sep;
  return undefined;
}

const SINGLE: Record<string, (t: Token) => boolean> = {
  ident: (t) => t.k === 'id',
  lifetime: (t) => t.k === 'life',
  literal: (t) => t.k === 'lit' || (t.k === 'id' && (t.t === 'true' || t.t === 'false')),
  tt: () => true,
  block: (t) => t.k === 'group' && t.open === '{',
};

function matchSeq(pats: readonly Pat[], toks: readonly Token[], pos: number, b: Map<string, Binding>, stop?: Token): number {
  for (let k = 0; k < pats.length; k++) {
    const p = pats[k]!;
    if (p.p === 'tok') {
      const t = toks[pos];
      if (!t || !same(t, p.tok)) return -1;
      pos++;
    } else if (p.p === 'group') {
      const t = toks[pos];
      if (!t || t.k !== 'group' || t.open !== p.open) return -1;
      if (matchSeq(p.body, t.tokens, 0, b) !== t.tokens.length) return -1;
      pos++;
    } else if (p.p === 'bind') {
      const single = SINGLE[p.frag];
      if (single) {
        const t = toks[pos];
        if (!t || !single(t)) return -1;
        b.set(p.name, [t]);
        pos++;
        continue;
      }
      // Greedy fragments (expr, ty, path, pat, vis, item, stmt, meta): up to the next literal of the pattern.
      const end = firstLiteral(pats, k + 1, stop);
      let j = pos;
      if (p.frag === 'vis') {
        if (toks[j]?.k === 'id' && (toks[j] as { t: string }).t === 'pub') {
          j++;
          if (toks[j]?.k === 'group' && (toks[j] as { open: string }).open === '(') j++;
        }
      } else {
        j = fragmentEnd(p.frag, toks, pos, end);
        if (j === pos) return -1;
      }
      b.set(p.name, toks.slice(pos, j));
      pos = j;
    } else {
      const runs: Map<string, Binding>[] = [];
      const after = firstLiteral(pats, k + 1, stop);
      while (pos < toks.length) {
        if (runs.length > 0 && p.sep) {
          if (!same(toks[pos]!, p.sep)) break;
          pos++;
        }
        const rb = new Map<string, Binding>();
        const next = matchSeq(p.body, toks, pos, rb, p.sep ?? after);
        if (next < 0 || next === pos) {
          if (runs.length > 0 && p.sep) pos--;
          break;
        }
        runs.push(rb);
        pos = next;
        if (p.op === '?') break;
      }
      if (p.op === '+' && runs.length === 0) return -1;
      for (const name of namesIn(p.body)) b.set(name, { rep: runs.map((r) => r.get(name) ?? []) });
    }
  }
  return pos;
}

/** Tokens that end a fragment at its own depth: no expression, type, path or pattern goes on past them. */
const FRAGMENT_STOPS: Record<string, ReadonlySet<string>> = {
  expr: new Set([',', ';', '=>']),
  stmt: new Set([',', ';', '=>']),
  ty: new Set([',', ';', '=>', '=']),
  path: new Set([',', ';', '=>', '=']),
  pat: new Set([',', '=>', '=']),
};

const isPunct = (t: Token | undefined, s: string) => t?.k === 'punct' && t.t === s;

/**
 * Where a greedy fragment that starts at `pos` ends: at `end` (the pattern's next literal), or
 * where a token its kind cannot go on past stands at its own depth (`$e:expr` never takes a
 * `,`, so `calc_max!(a, b, 16)` does not match `($max:expr, $bytes:expr)`), never inside angle
 * brackets (`HashMap<K, V>`, a turbofish `f::<A, B>()`) or a closure's `|a, b|`.
 */
function fragmentEnd(frag: string, toks: readonly Token[], pos: number, end: Token | undefined): number {
  const stops = FRAGMENT_STOPS[frag];
  let j = pos;
  if (!stops) {
    // Other greedy fragments (vis, item, meta …): up to the next literal.
    while (j < toks.length && !(end && same(toks[j]!, end))) j++;
    return j;
  }
  const types = frag === 'ty' || frag === 'path';
  let angles = 0;
  // After `->` or `as` a type is written (`|x| -> Result<u8, E> { … }`, `x as Foo<A, B>`): its `<` open brackets.
  let typed = false;
  for (; j < toks.length; j++) {
    const t = toks[j]!;
    if (angles === 0 && end && same(t, end)) break;
    const prev = toks[j - 1];
    if (t.k === 'id') {
      if (t.t === 'as') typed = true;
      continue;
    }
    // A type goes on with names, `::`, lifetimes and, at its start, `&`/`*`; anything else ends it (`x as u64 * 2 < n`).
    const typeStart = prev?.k === 'id' && (prev.t === 'as' || prev.t === 'mut' || prev.t === 'const');
    if (
      typed &&
      angles === 0 &&
      !(t.k === 'punct' && (t.t === '::' || t.t === '<' || ((t.t === '&' || t.t === '*') && (typeStart || isPunct(prev, '->'))))) &&
      t.k !== 'life'
    )
      typed = false;
    if (t.k !== 'punct') continue;
    if (t.t === '->') typed = true;
    else if (t.t === '<' && (types || (typed && prev?.k === 'id') || angles > 0 || j === pos || isPunct(prev, '::'))) angles++;
    else if (t.t === '<<' && (types || angles > 0 || j === pos)) angles += 2;
    else if (angles > 0 && t.t === '>') {
      if (--angles === 0) typed = false;
    } else if (angles > 0 && t.t === '>>') {
      angles = Math.max(0, angles - 2);
      if (angles === 0) typed = false;
    } else if (angles > 0) continue;
    else if (
      t.t === '|' &&
      !types &&
      (j === pos || (prev?.k === 'punct' && prev.t !== '?') || (prev?.k === 'id' && (prev.t === 'move' || prev.t === 'async')))
    ) {
      // A closure's parameters: up to the `|` that closes them.
      j++;
      while (j < toks.length && !isPunct(toks[j], '|')) j++;
    } else if (stops.has(t.t)) break;
  }
  return Math.min(j, toks.length);
}

function namesIn(pats: readonly Pat[], out: string[] = []): string[] {
  for (const p of pats) {
    if (p.p === 'bind') out.push(p.name);
    else if (p.p === 'group' || p.p === 'rep') namesIn(p.body, out);
  }
  return out;
}

function transcribe(body: readonly Token[], b: Map<string, Binding>, out: Token[], dollarCrate: readonly Token[]): boolean {
  for (let i = 0; i < body.length; i++) {
    if (out.length > MAX_TOKENS) return false;
    const t = body[i]!;
    if (t.k === 'punct' && t.t === '$') {
      const n = body[i + 1];
      if (n?.k === 'id') {
        i++;
        if (n.t === 'crate') {
          out.push(...dollarCrate);
          continue;
        }
        const v = b.get(n.t);
        if (!v || !Array.isArray(v)) return false;
        out.push(...v);
        continue;
      }
      if (n?.k === 'group' && n.open === '(') {
        let j = i + 2;
        const isOp = (x: Token | undefined) => x?.k === 'punct' && ['*', '+', '?'].includes(x.t);
        let sep: Token | undefined;
        if (!isOp(body[j])) {
          sep = body[j];
          j++;
        }
        // Repeat as often as the repeated bindings used inside say.
        const used = [...b.entries()].filter((e): e is [string, { rep: Binding[] }] => !Array.isArray(e[1]) && mentions(n.tokens, e[0]));
        const count = used.length > 0 ? Math.min(...used.map(([, v]) => v.rep.length)) : 0;
        for (let r = 0; r < count; r++) {
          if (r > 0 && sep) out.push(sep);
          const inner = new Map(b);
          for (const [name, v] of used) inner.set(name, v.rep[r]!);
          if (!transcribe(n.tokens, inner, out, dollarCrate)) return false;
        }
        i = j;
        continue;
      }
    }
    if (t.k === 'group') {
      const tokens: Token[] = [];
      if (!transcribe(t.tokens, b, tokens, dollarCrate)) return false;
      out.push({ k: 'group', open: t.open, tokens });
    } else out.push(t);
  }
  return true;
}

function mentions(tokens: readonly Token[], name: string): boolean {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (
      t.k === 'group'
        ? mentions(t.tokens, name)
        : t.k === 'punct' && t.t === '$' && tokens[i + 1]?.k === 'id' && (tokens[i + 1] as { t: string }).t === name
    )
      return true;
  }
  return false;
}

/** A macro's rules: matcher and transcriber token lists. */
export interface MacroRules {
  rules: { matcher: Pat[]; body: Token[] }[];
  /** The attributes it puts on the items it is given, when that is all it does ({@link itemAttributeWrapper}). */
  wrapper?: string[];
}

/** Reads `macro_rules!` rules from their texts (`(($x:ident) => { … })` pairs); undefined rules are skipped. */
export function compileRules(pairs: readonly { matcher: string; body: string }[]): MacroRules {
  const rules: MacroRules['rules'] = [];
  for (const r of pairs) {
    const m = tokenize(r.matcher);
    const body = tokenize(r.body);
    const g = m?.[0];
    const bg = body?.[0];
    if (!g || g.k !== 'group' || !bg || bg.k !== 'group') continue;
    const matcher = compile(g.tokens);
    if (matcher) rules.push({ matcher, body: bg.tokens });
  }
  const wrapper = itemAttributeWrapper(pairs);
  return { rules, ...(wrapper ? { wrapper } : {}) };
}

/**
 * The expansion of an invocation's tokens (inside its delimiters) by the first rule that matches,
 * as source text. `$crate` becomes `crate`, or `::name` for a macro of another crate.
 */
export function expand(macro: MacroRules, args: string, crateName?: string): string | undefined {
  const dollarCrate: Token[] = crateName
    ? [
        { k: 'punct', t: '::' },
        { k: 'id', t: crateName },
      ]
    : [{ k: 'id', t: 'crate' }];
  const toks = tokenize(args);
  if (!toks) return undefined;
  for (const r of macro.rules) {
    const b = new Map<string, Binding>();
    if (matchSeq(r.matcher, toks, 0, b) !== toks.length) continue;
    const out: Token[] = [];
    if (transcribe(r.body, b, out, dollarCrate)) return render(out);
  }
  return undefined;
}

/**
 * The attributes a `macro_rules!` puts on each item it is given, when that is all it does — the
 * cfg macros of tokio, mio and many others:
 *
 * ```rust
 * macro_rules! cfg_rt { ($($item:item)*) => { $( #[cfg(feature = "rt")] $item )* } }
 * ```
 *
 * gives `['cfg(feature = "rt")']` (each attribute's text without `#[` `]`, spaces collapsed).
 * Undefined for any other macro: the items of an invocation of such a wrapper are the items
 * written in it, where they are written, with those attributes added.
 */
export function itemAttributeWrapper(pairs: readonly { matcher: string; body: string }[]): string[] | undefined {
  if (pairs.length !== 1) return undefined;
  const m = /^[([{]\s*\$\(\s*\$([A-Za-z_]\w*)\s*:\s*item\s*\)\s*\*\s*[)\]}]$/.exec(pairs[0]!.matcher.trim());
  if (!m) return undefined;
  const body = pairs[0]!.body.trim();
  const inner = /^[([{]\s*\$\(([\s\S]*)\)\s*\*\s*[)\]}]$/.exec(body)?.[1]?.trim();
  if (!inner || !inner.endsWith(`$${m[1]}`)) return undefined;
  let rest = inner.slice(0, -(m[1]!.length + 1)).trim();
  const attrs: string[] = [];
  while (rest.length > 0) {
    if (!rest.startsWith('#')) return undefined;
    rest = rest.slice(1).trimStart();
    if (!rest.startsWith('[')) return undefined;
    let depth = 0;
    let end = -1;
    for (let i = 0; i < rest.length; i++) {
      if (rest[i] === '[') depth++;
      else if (rest[i] === ']' && --depth === 0) {
        end = i;
        break;
      }
    }
    if (end < 0) return undefined;
    attrs.push(rest.slice(1, end).replace(/\s+/g, ' ').trim());
    rest = rest.slice(end + 1).trim();
  }
  return attrs.length > 0 ? attrs : undefined;
}
