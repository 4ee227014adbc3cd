/**
 * The methods of std values a build script calls, as build-script-eval.ts follows them:
 * `Option`/`Result` (`unwrap`, `map`, `is_ok`…), strings (`contains`, `starts_with`, `split`…),
 * lists (`contains`, `any`…) and paths (`exists`). Any other method is unknown.
 */
import { bool, eq, NONE, some, str, UNKNOWN, type Value, withNe } from './build-script-values.js';

/** Methods that give rustc's version back from an `Option`/`Result` of it. */
const VERSION_PASS_THROUGH = new Set(['unwrap', 'expect', 'unwrap_or', 'unwrap_or_default', 'unwrap_or_else', 'ok', 'clone', 'as_ref']);

/** What a method needs of the evaluator. */
export interface MethodHooks {
  /** Calls a closure (or a function of the script) with these arguments; unknown for anything else. */
  apply(fn: Value | undefined, args: Value[]): Value;
  /** The method is not followed: closures among its arguments may run (their cfg lines are unknown). */
  runClosures(): void;
  /** The method ends the process (`unwrap` of `None`). */
  exit(): void;
  /** Whether a path of the package exists; undefined: cannot tell. */
  exists(path: string): boolean | undefined;
}

/** `recv.name(args…)`. */
export function stdMethod(name: string, recv: Value, args: readonly Value[], hooks: MethodHooks): Value {
  // rustc's version read from a helper stays that through `unwrap()` and the like.
  if (recv.k === 'unknown' && recv.version && VERSION_PASS_THROUGH.has(name)) return recv;
  const a0 = args[0];
  const apply = (fn: Value | undefined, x: Value[]): Value => hooks.apply(fn, x);
  // A plain string stands for `Ok(s)` / `Some(s)` (`env::var` read as its value).
  const opt = recv.k === 'str' || recv.k === 'num' || recv.k === 'bool' ? some(recv) : recv;
  switch (name) {
    case 'unwrap':
    case 'expect':
    case 'unwrap_or_default':
      if (recv.k === 'some') return recv.v;
      if (recv.k === 'none' && name !== 'unwrap_or_default') hooks.exit();
      return recv.k === 'str' || recv.k === 'num' || recv.k === 'bool' ? recv : UNKNOWN;
    case 'unwrap_or':
      return opt.k === 'some' ? opt.v : opt.k === 'none' ? (a0 ?? UNKNOWN) : UNKNOWN;
    case 'unwrap_or_else':
      return opt.k === 'some' ? opt.v : opt.k === 'none' ? apply(a0, [UNKNOWN]) : UNKNOWN;
    case 'ok':
    case 'as_ref':
    case 'as_deref':
    case 'as_str':
    case 'as_os_str':
    case 'to_str':
    case 'to_string_lossy':
    case 'into_string':
    case 'to_string':
    case 'to_owned':
    case 'clone':
    case 'into':
    case 'iter':
    case 'into_iter':
    case 'collect':
    case 'copied':
    case 'cloned':
    case 'borrow':
      // `to_str()` of an OsString is `Option<&str>`: a plain string stands for it.
      return name === 'to_str' && recv.k === 'str' ? some(recv) : recv;
    case 'is_ok':
    case 'is_some':
      return recv.k === 'some' || recv.k === 'str' ? bool(true) : recv.k === 'none' ? bool(false) : UNKNOWN;
    case 'is_err':
    case 'is_none':
      return recv.k === 'some' || recv.k === 'str' ? bool(false) : recv.k === 'none' ? bool(true) : UNKNOWN;
    case 'map':
      if (opt.k === 'some') return some(apply(a0, [opt.v]));
      if (opt.k === 'none') return NONE;
      if (recv.k === 'list') return { k: 'list', v: recv.v.map((x) => apply(a0, [x])) };
      hooks.runClosures();
      return UNKNOWN;
    case 'and_then':
      if (opt.k === 'some') return apply(a0, [opt.v]);
      if (opt.k === 'none') return NONE;
      hooks.runClosures();
      return UNKNOWN;
    case 'map_or':
      if (opt.k === 'some') return apply(args[1], [opt.v]);
      return opt.k === 'none' ? (a0 ?? UNKNOWN) : UNKNOWN;
    case 'any':
    case 'all': {
      if (recv.k !== 'list') {
        hooks.runClosures();
        return UNKNOWN;
      }
      const vs = recv.v.map((x) => apply(a0, [x]));
      const want = name === 'any';
      if (vs.some((x) => x.k === 'bool' && x.v === want)) return bool(want);
      return vs.every((x) => x.k === 'bool') ? bool(!want) : UNKNOWN;
    }
    case 'contains':
      if (recv.k === 'str' && a0?.k === 'str') return bool(recv.v.includes(a0.v));
      if (recv.k === 'list' && a0 && a0.k !== 'unknown') {
        const hits = recv.v.map((x) => eq(x, a0));
        if (hits.some((h) => h.k === 'bool' && h.v)) return bool(true);
        return hits.every((h) => h.k === 'bool') ? bool(false) : UNKNOWN;
      }
      return UNKNOWN;
    case 'starts_with':
    case 'ends_with':
    case 'eq_ignore_ascii_case':
    case 'eq':
    case 'ne':
      if (recv.k !== 'str' || a0?.k !== 'str') return name === 'eq' || name === 'ne' ? withNe(name, a0 ? eq(recv, a0) : UNKNOWN) : UNKNOWN;
      return bool(
        name === 'starts_with'
          ? recv.v.startsWith(a0.v)
          : name === 'ends_with'
            ? recv.v.endsWith(a0.v)
            : name === 'eq_ignore_ascii_case'
              ? recv.v.toLowerCase() === a0.v.toLowerCase()
              : (recv.v === a0.v) === (name === 'eq'),
      );
    case 'split':
      return recv.k === 'str' && a0?.k === 'str' ? { k: 'list', v: recv.v.split(a0.v).map(str) } : UNKNOWN;
    case 'trim':
      return recv.k === 'str' ? str(recv.v.trim()) : UNKNOWN;
    case 'to_lowercase':
    case 'to_ascii_lowercase':
      return recv.k === 'str' ? str(recv.v.toLowerCase()) : UNKNOWN;
    case 'to_uppercase':
    case 'to_ascii_uppercase':
      return recv.k === 'str' ? str(recv.v.toUpperCase()) : UNKNOWN;
    case 'replace':
      return recv.k === 'str' && a0?.k === 'str' && args[1]?.k === 'str' ? str(recv.v.split(a0.v).join(args[1].v)) : UNKNOWN;
    case 'len':
      return recv.k === 'str' || recv.k === 'list' ? { k: 'num', v: recv.v.length } : UNKNOWN;
    case 'is_empty':
      return recv.k === 'str' || recv.k === 'list' ? bool(recv.v.length === 0) : UNKNOWN;
    case 'success':
      // A compiler probe's exit status, read as whether it succeeded.
      return recv.k === 'bool' ? recv : UNKNOWN;
    case 'exists':
    case 'is_file':
    case 'is_dir': {
      if (recv.k !== 'str') return UNKNOWN;
      const e = hooks.exists(recv.v);
      return e === undefined ? UNKNOWN : bool(e);
    }
    case 'join':
      return recv.k === 'str' && a0?.k === 'str' ? str(`${recv.v.replace(/\/$/, '')}/${a0.v}`) : UNKNOWN;
    default:
      hooks.runClosures();
      return UNKNOWN;
  }
}
