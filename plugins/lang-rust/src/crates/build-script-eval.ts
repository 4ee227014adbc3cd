/**
 * Runs a build script's `fn main` in the abstract, on the build {@link isActive} assumes (a
 * current stable rustc, Linux x86_64, the package's default features, no `RUSTFLAGS`), to learn
 * which `cargo:rustc-cfg=…` lines it prints. Cargo runs the script and rustc reads those cfgs;
 * reading the script as cargo would run it is the closest a plugin that runs nothing can come.
 *
 * What it follows: `let` bindings, helper functions of the script (called with their
 * arguments), `if`/`else`, `if let`, `match` on strings, `Option`s and `Result`s, `return`,
 * `?`, loops over literal lists, closures given to `map`/`any`/…, consts and statics of the
 * script, `format!`, `println!`, `#[cfg]` and `cfg!`. What it knows of the world: the
 * environment Cargo gives a build script on the assumed target (`CARGO_CFG_TARGET_ARCH`,
 * `CARGO_FEATURE_<F>` of each enabled feature, `TARGET`…; any other variable is unset, as in a
 * default build), and which files of the package exist (`std::fs::metadata(p).is_ok()`).
 *
 * What it cannot know is unknown, never guessed: a compiler probe (a helper that runs
 * `Command::new(rustc)`) is unknown, except one that compiles `#![feature(…)]`, which a stable
 * compiler refuses; autocfg's calls are read as build-script-autocfg.ts says (its version
 * checks known, its compiled probes unknown); a call of another crate is unknown
 * (`version_check`), and an
 * `if` on an unknown value falls back to the header rules of build-script-cfgs.ts (rustc minor
 * version and nightly checks). A cfg printed where it is not known whether the code runs is
 * unknown; one printed where it surely runs is set; one the script names but never prints on
 * this build is off.
 */
import type { Node, Tree } from 'web-tree-sitter';
import { ASSUMED_RUSTC_MINOR, type BuildScriptCfgs, featureCfg, headerValue, withoutComments } from './build-script-cfgs.js';
import { type AutoCfgCall, autocfgFunction, autocfgMethod, isEmitter } from './build-script-autocfg.js';
import { cargoEnv } from './build-script-env.js';
import { type MethodHooks, stdMethod } from './build-script-std.js';
import {
  arithmetic,
  bool,
  eq,
  NONE,
  renderFormat,
  same,
  Scope,
  some,
  str,
  UNIT,
  UNKNOWN,
  unquote,
  type Value,
} from './build-script-values.js';
import { type CfgFeatures, evalCfgAttr } from './cfg.js';

/** Parses Rust text; undefined when it cannot. The caller deletes the tree. */
export type RustParser = (text: string) => Tree | undefined;

/** What a build script's run depends on besides its text. */
export interface BuildScriptContext {
  /** The features the package's default build enables (Cargo sets `CARGO_FEATURE_<NAME>` for each). */
  features: ReadonlySet<string>;
  /** The package's name and version (`CARGO_PKG_NAME`, `CARGO_PKG_VERSION`), when known. */
  pkg?: { name?: string | undefined; version?: string | undefined };
  /** Whether a path (relative to the package directory, where cargo runs the script) exists; undefined: cannot tell. */
  exists(path: string): boolean | undefined;
  /** A file of the package the script `include!`s (relative to the script's directory); undefined: cannot be read. */
  read(path: string): string | undefined;
  /** Parses the script, and the arguments of its macros (the evaluator deletes each tree). */
  parse: RustParser;
}

/** Nodes evaluated before the evaluator gives up (then nothing it read counts). */
const STEP_BUDGET = 200_000;
/** Helper calls nested deeper than this are unknown. */
const MAX_CALL_DEPTH = 24;
/** Longest literal list a `for` loop is unrolled over. */
const MAX_UNROLL = 256;

const EMIT = /^cargo::?rustc-cfg=(.*)$/s;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const FEATURE = /^feature\s*=\s*"([A-Za-z0-9_.+-]+)"$/;
/** A helper whose name says it reads the compiler's version: on the assumed build it can. */
const VERSION_HELPER = /minor|version|rustc/i;
/** A helper whose name says it gives rustc's (minor) version: what it gives compares as the assumed one. */
const RUSTC_VERSION = /rustc|minor/i;
/** A std method written as a path (`String::as_str`, `str::trim`, `Option::is_some`): its name. */
const STD_METHOD_PATH =
  /^(?:(?:std|core|alloc)::(?:string|str|borrow|clone|convert|ffi|option|result|path)::)?(?:String|str|ToString|ToOwned|Clone|OsString|OsStr|Option|Result|AsRef|Into|Path|PathBuf)::([a-z_][a-z0-9_]*)$/;
/** The assumed compiler's version, for values that are rustc's version. */
const RUSTC_MINOR: Value = { k: 'unknown', version: true };

/** One call of a function (or `main`) being evaluated. */
interface Activation {
  /** Whether the code being evaluated surely runs (the call surely happens and nothing left before). */
  sure: boolean;
  /** Whether the function returned: surely, maybe, or not yet. */
  returned: 'no' | 'maybe' | 'sure';
  /** The values its `return`s gave. */
  returns: Value[];
  /** It runs a process (a compiler probe): its answer is unknown. */
  probe: boolean;
}

/** Nothing is known of the custom cfgs of a script that cannot be read. */
const UNREAD: BuildScriptCfgs = { known: new Map(), emitted: new Set(), closed: false };

/**
 * The custom cfgs a package's build script sets on the assumed build: its `fn main` evaluated
 * ({@link evaluateBuildScript}). Cfgs the script cannot show are unknown: names it builds from
 * values not known here, and any cfg at all when part of it is elsewhere (a `mod`, `include!`)
 * or printed by an autocfg call the run did not follow.
 *
 * @example
 * ```ts
 * const cfgs = readBuildScript('fn main() { println!("cargo:rustc-cfg=fast"); }', { features: new Set(), exists: () => undefined, read: () => undefined, parse });
 * cfgs.known.get('fast'); // true
 * ```
 */
export function readBuildScript(text: string, ctx: BuildScriptContext): BuildScriptCfgs {
  let tree: Tree | undefined;
  try {
    tree = ctx.parse(text);
  } catch {
    tree = undefined;
  }
  if (!tree) return UNREAD;
  let cfgs: BuildScriptCfgs | undefined;
  try {
    cfgs = evaluateBuildScript(tree, ctx);
  } finally {
    tree.delete();
  }
  if (!cfgs) return UNREAD;
  // Names it cannot show: in code it does not hold (a `mod` of another file; an `include!` it
  // could not read is the evaluator's; cfg_aliases and other build-dependencies are ruled out by
  // the caller).
  const elsewhere = /\bmod\s+[A-Za-z_]\w*\s*;|#\[path\b/.test(withoutComments(text));
  return elsewhere ? { ...cfgs, closed: false } : cfgs;
}

/**
 * The cfgs a build script prints on the assumed build, read by evaluating its `fn main` (see
 * the file comment). `tree` is the script's parse (deleted by the caller).
 * Returns undefined when the script has no `fn main` or could not be followed to its end
 * (too many steps): the caller then knows nothing of its cfgs.
 */
export function evaluateBuildScript(tree: Tree, ctx: BuildScriptContext): BuildScriptCfgs | undefined {
  const ev = new Evaluator(tree.rootNode, ctx);
  try {
    return ev.run();
  } finally {
    ev.dispose();
  }
}

class Evaluator {
  private readonly fns = new Map<string, Node>();
  private readonly consts = new Map<string, Node>();
  private readonly constValues = new Map<string, Value>();
  /** Names `use` brings in, by the path they stand for (`var` → `std::env::var`). */
  private readonly imports = new Map<string, string>();
  private readonly set = new Set<string>();
  private readonly maybe = new Set<string>();
  private closed = true;
  /** The process may have ended (`exit`, a panic, `?` on an error in `main`): surely or maybe. */
  private exited: 'no' | 'maybe' | 'sure' = 'no';
  /** Start indexes of the string literals printed as cfg lines. */
  private readonly printed = new Set<number>();
  /** Functions of the script entered at least once. */
  private readonly entered = new Set<Node['id']>();
  private readonly trees: Tree[] = [];
  /** The functions being called, innermost last (by node id). */
  private readonly calls: number[] = [];
  private steps = 0;
  private readonly buildFeatures: CfgFeatures;

  constructor(
    private readonly root: Node,
    private readonly ctx: BuildScriptContext,
  ) {
    this.buildFeatures = Object.assign(new Set(ctx.features), {
      buildCfgs: { known: new Map(), emitted: new Set<string>(), closed: true },
    });
  }

  dispose(): void {
    for (const t of this.trees) t.delete();
  }

  run(): BuildScriptCfgs | undefined {
    this.readItems(this.root, true);
    // An `include!` anywhere else (`include!(concat!(env!("OUT_DIR"), …))`) holds code not read.
    for (const m of this.root.descendantsOfType('macro_invocation'))
      if (m && macroName(m) === 'include' && !atTopLevel(m)) this.closed = false;
    const main = this.fns.get('main');
    if (!main) return undefined;
    this.callFunction(main, [], true);
    // Given up part of the way: what it read is not the whole run.
    return this.steps > STEP_BUDGET ? undefined : this.result();
  }

  /**
   * The functions, consts and `use`s of a file of the script; at its top level, what an
   * `include!("file.rs")` of the package holds too (crossbeam's `no_atomic.rs` target lists).
   * A file that cannot be read, or that prints cfg lines itself, leaves the cfgs open.
   */
  private readItems(root: Node, top: boolean): void {
    for (const item of root.namedChildren) {
      // A top-level `include!(…);` is read as an expression statement.
      const n = item?.type === 'expression_statement' ? item.namedChildren[0] : item;
      if (!n) continue;
      const name = n.childForFieldName('name')?.text;
      if (n.type === 'function_item' && name) this.fns.set(name, n);
      else if ((n.type === 'const_item' || n.type === 'static_item') && name) this.consts.set(name, n);
      else if (n.type === 'use_declaration') this.readUse(n.childForFieldName('argument'), []);
      else if (n.type === 'macro_invocation' && macroName(n) === 'include') {
        const lit = n.namedChildren.find((c) => c?.type === 'token_tree')?.namedChildren;
        const path = lit?.length === 1 && lit[0]?.type === 'string_literal' ? unquote(lit[0]) : undefined;
        const text = top && path !== undefined ? this.ctx.read(path) : undefined;
        const tree = text !== undefined && !/rustc-cfg=/.test(text) ? this.ctx.parse(text) : undefined;
        if (!tree) {
          this.closed = false;
          continue;
        }
        this.trees.push(tree);
        this.readItems(tree.rootNode, false);
      }
    }
  }

  private result(): BuildScriptCfgs {
    const emitted = new Set<string>([...this.set, ...this.maybe]);
    // Cfg lines the run never reached: off when in code that cannot run on this build (a
    // branch not taken, after a `return`, a helper never called); unknown when in code the run
    // does not follow (a macro's body).
    for (const lit of this.cfgLiterals()) {
      if (this.printed.has(lit.startIndex)) continue;
      const name = cfgName(unquote(lit));
      if (name === undefined) {
        if (this.reachable(lit)) this.closed = false;
        continue;
      }
      emitted.add(name);
      if (this.reachable(lit)) this.maybe.add(name);
    }
    if (this.autocfgLeft()) this.closed = false;
    const known = new Map<string, boolean>();
    for (const name of emitted)
      if (this.set.has(name)) known.set(name, true);
      else if (!this.maybe.has(name)) known.set(name, false);
    return { known, emitted, closed: this.closed };
  }

  /** Whether an unprinted cfg literal may still run: it is in no function the run followed, and not in one nothing names (dead code). */
  private reachable(lit: Node): boolean {
    for (let p = lit.parent; p; p = p.parent) if (p.type === 'function_item') return !this.entered.has(p.id) && this.mentioned(p);
    return true;
  }

  /** Whether a function of the script is named anywhere but its own definition (else it never runs). */
  private mentioned(fn: Node): boolean {
    const name = fn.childForFieldName('name')?.text;
    if (!name) return true;
    return (this.names ??= this.root.descendantsOfType(['identifier', 'field_identifier']).filter((i): i is Node => i !== null)).some(
      (i) => i.text === name && (i.startIndex < fn.startIndex || i.startIndex >= fn.endIndex),
    );
  }

  /** The script's names (identifiers and fields), read once for {@link mentioned}. */
  private names: Node[] | undefined;

  private *cfgLiterals(): Iterable<Node> {
    for (const lit of this.root.descendantsOfType(['string_literal', 'raw_string_literal']))
      if (lit && /cargo::?rustc-cfg=/.test(lit.text)) yield lit;
  }

  // ——— uses ———

  private readUse(n: Node | null, prefix: string[]): void {
    if (!n) return;
    switch (n.type) {
      case 'identifier':
        this.imports.set(n.text, [...prefix, n.text].join('::'));
        return;
      case 'scoped_identifier': {
        const full = [...prefix, ...n.text.split('::').map((s) => s.trim())];
        this.imports.set(full[full.length - 1]!, full.join('::'));
        return;
      }
      case 'use_as_clause': {
        const path = n.childForFieldName('path')?.text;
        const alias = n.childForFieldName('alias')?.text;
        if (path && alias) this.imports.set(alias, [...prefix, ...path.split('::').map((s) => s.trim())].join('::'));
        return;
      }
      case 'scoped_use_list': {
        const path = n.childForFieldName('path')?.text;
        const list = n.childForFieldName('list');
        const next = path ? [...prefix, ...path.split('::').map((s) => s.trim())] : prefix;
        for (const c of list?.namedChildren ?? [])
          if (c?.type === 'self') this.imports.set(next[next.length - 1]!, next.join('::'));
          else this.readUse(c, next);
        return;
      }
      case 'use_list':
        for (const c of n.namedChildren) this.readUse(c, prefix);
        return;
      default:
        return;
    }
  }

  /** The full path a callee's text names (`env::var` → `std::env::var` when `use std::env;`). */
  private pathOf(text: string): string {
    const segs = text.replace(/\s+/g, '').split('::');
    const head = this.imports.get(segs[0]!);
    return head ? [head, ...segs.slice(1)].join('::') : segs.join('::');
  }

  // ——— functions ———

  private callFunction(fn: Node, args: Value[], sure: boolean): Value {
    if (this.calls.length >= MAX_CALL_DEPTH || this.calls.includes(fn.id)) return UNKNOWN;
    this.entered.add(fn.id);
    const body = fn.childForFieldName('body');
    if (!body) return UNKNOWN;
    const scope = new Scope(undefined);
    const params = fn.childForFieldName('parameters')?.namedChildren.filter((p) => p?.type === 'parameter') ?? [];
    params.forEach((p, i) => {
      const pat = p?.childForFieldName('pattern');
      if (pat) this.bind(pat, args[i] ?? UNKNOWN, scope);
    });
    const act: Activation = { sure, returned: 'no', returns: [], probe: /\bCommand\s*::\s*new\b/.test(body.text) };
    this.calls.push(fn.id);
    let tail: Value;
    try {
      tail = this.block(body, scope, act);
    } finally {
      this.calls.pop();
    }
    const value = this.returnValue(act, tail);
    if (!act.probe) return value;
    return this.compilesNightlyCode(fn, args) ? failedProbe(fn) : value.k === 'bool' ? value : UNKNOWN;
  }

  /**
   * Whether a probe compiles `#![feature(…)]`, which a stable compiler refuses: in its arguments,
   * its own strings, or a const of the script it names (anyhow's `PROBE`).
   */
  private compilesNightlyCode(fn: Node, args: readonly Value[]): boolean {
    const nightly = (v: Value | undefined) => v?.k === 'str' && v.v.includes('#![feature(');
    if (args.some(nightly)) return true;
    for (const lit of fn.descendantsOfType(['string_literal', 'raw_string_literal'])) if (lit?.text.includes('#![feature(')) return true;
    for (const id of fn.descendantsOfType('identifier'))
      if (id && this.consts.has(id.text) && nightly(this.name(id.text, new Scope(undefined)))) return true;
    return false;
  }

  private callClosure(f: Value & { k: 'fn' }, args: Value[], sure: boolean): Value {
    if (f.item) return this.callFunction(f.item, args, sure);
    const scope = new Scope(f.scope);
    f.params.forEach((p, i) => this.bind(p, args[i] ?? UNKNOWN, scope));
    const act: Activation = { sure, returned: 'no', returns: [], probe: false };
    const tail = this.expr(f.body, scope, act);
    return this.returnValue(act, tail);
  }

  /** A function's value: its `return`s and its tail, when they agree. */
  private returnValue(act: Activation, tail: Value): Value {
    const all = act.returned === 'sure' ? act.returns : [...act.returns, tail];
    if (all.length === 0) return UNKNOWN;
    const first = all[0]!;
    return all.every((v) => same(v, first)) ? first : UNKNOWN;
  }

  // ——— statements ———

  /** Whether code reached now surely runs. */
  private sure(act: Activation): boolean {
    return act.sure && act.returned === 'no' && this.exited === 'no';
  }

  /** Nothing more runs here: the function returned, the process ended, or the step budget is spent. */
  private stopped(act: Activation): boolean {
    return act.returned === 'sure' || this.exited === 'sure' || this.steps > STEP_BUDGET;
  }

  private block(n: Node, outer: Scope, act: Activation): Value {
    const scope = new Scope(outer);
    // Items of the block first: they are in scope from its start.
    for (const c of n.namedChildren)
      if (c?.type === 'function_item') {
        const name = c.childForFieldName('name')?.text;
        if (name) scope.set(name, { k: 'fn', params: [], body: c, scope: undefined, item: c });
      } else if ((c?.type === 'const_item' || c?.type === 'static_item') && c.childForFieldName('name')) {
        const v = c.childForFieldName('value');
        scope.set(c.childForFieldName('name')!.text, v ? this.expr(v, scope, act) : UNKNOWN);
      }
    let last: Value = UNIT;
    let cfg: boolean | undefined = true;
    const kids = n.namedChildren;
    for (let i = 0; i < kids.length; i++) {
      const c = kids[i]!;
      if (this.stopped(act)) return UNKNOWN;
      if (c.type === 'attribute_item') {
        const attr = c.namedChildren[0]?.text ?? '';
        if (/^cfg\s*\(/.test(attr)) {
          const v = evalCfgAttr(attr, this.buildFeatures);
          cfg = cfg === false || v === false ? false : cfg === undefined || v === undefined ? undefined : true;
        }
        continue;
      }
      const on = cfg;
      cfg = true;
      if (on === false) continue;
      const run = () => this.statement(c, scope, act, i === kids.length - 1);
      last = on === undefined ? this.maybeRun(act, run) : run();
    }
    return last;
  }

  /** Runs `f` as code that may or may not run. */
  private maybeRun<T>(act: Activation, f: () => T): T {
    const was = act.sure;
    act.sure = false;
    try {
      return f();
    } finally {
      act.sure = was;
    }
  }

  private statement(n: Node, scope: Scope, act: Activation, last: boolean): Value {
    switch (n.type) {
      case 'let_declaration': {
        const pat = n.childForFieldName('pattern');
        const value = n.childForFieldName('value');
        const v = value ? this.expr(value, scope, act) : UNKNOWN;
        const alt = n.childForFieldName('alternative');
        if (pat && alt) {
          // `let PAT = v else { … };`
          const m = this.matches(pat, v, scope);
          if (m === false) this.expr(alt, scope, act);
          else if (m === undefined) this.maybeRun(act, () => this.expr(alt, scope, act));
          return UNIT;
        }
        if (pat) this.bind(pat, value ? v : UNKNOWN, scope);
        return UNIT;
      }
      case 'expression_statement': {
        const e = n.namedChildren[0];
        const v = e ? this.expr(e, scope, act) : UNIT;
        return last && n.lastChild?.type !== ';' ? v : UNIT;
      }
      case 'function_item':
      case 'const_item':
      case 'static_item':
      case 'use_declaration':
      case 'line_comment':
      case 'block_comment':
      case 'empty_statement':
        return UNIT;
      default:
        // The block's tail expression.
        return this.expr(n, scope, act);
    }
  }

  // ——— expressions ———

  private expr(n: Node, scope: Scope, act: Activation): Value {
    if (++this.steps > STEP_BUDGET) return UNKNOWN;
    if (this.stopped(act)) return UNKNOWN;
    switch (n.type) {
      case 'string_literal':
      case 'raw_string_literal':
      case 'char_literal':
        return str(unquote(n));
      case 'integer_literal': {
        const v = Number(n.text.replace(/_/g, '').replace(/(?:[iu](?:8|16|32|64|128|size))$/, ''));
        return Number.isFinite(v) ? { k: 'num', v } : UNKNOWN;
      }
      case 'boolean_literal':
        return bool(n.text === 'true');
      case 'identifier':
        return this.name(n.text, scope);
      case 'scoped_identifier':
        return this.path(n.text);
      case 'parenthesized_expression':
      case 'reference_expression':
      case 'type_cast_expression': {
        const inner = n.childForFieldName('value') ?? n.namedChildren[0];
        return inner ? this.expr(inner, scope, act) : UNKNOWN;
      }
      case 'unary_expression': {
        const op = n.child(0)?.type;
        const inner = n.namedChildren[0];
        const v = inner ? this.expr(inner, scope, act) : UNKNOWN;
        if (op === '!') return v.k === 'bool' ? bool(!v.v) : UNKNOWN;
        if (op === '-') return v.k === 'num' ? { k: 'num', v: -v.v } : UNKNOWN;
        return v; // `*x`: the value itself
      }
      case 'binary_expression':
        return this.binary(n, scope, act);
      case 'index_expression': {
        const [base, index] = n.namedChildren;
        const b = base ? this.expr(base, scope, act) : UNKNOWN;
        if (index?.type === 'range_expression' && index.namedChildren.length === 0) return b;
        const i = index ? this.expr(index, scope, act) : UNKNOWN;
        return b.k === 'list' && i.k === 'num' ? (b.v[i.v] ?? UNKNOWN) : UNKNOWN;
      }
      case 'field_expression': {
        const base = n.childForFieldName('value');
        const field = n.childForFieldName('field');
        const b = base ? this.expr(base, scope, act) : UNKNOWN;
        if (b.k === 'list' && field?.type === 'integer_literal') return b.v[Number(field.text)] ?? UNKNOWN;
        // rustc's version: `v.minor` is the assumed one, `v.major` 1.
        if (b.k === 'unknown' && b.version)
          return field?.text === 'minor' ? RUSTC_MINOR : field?.text === 'major' ? { k: 'num', v: 1 } : UNKNOWN;
        return UNKNOWN;
      }
      case 'tuple_expression':
      case 'array_expression': {
        // `[x; n]` is no list of its elements.
        if (n.type === 'array_expression' && n.children.some((c) => c?.type === ';')) return UNKNOWN;
        return { k: 'list', v: n.namedChildren.filter((c): c is Node => c !== null).map((c) => this.expr(c, scope, act)) };
      }
      case 'unit_expression':
        return UNIT;
      case 'block':
        return this.block(n, scope, act);
      case 'unsafe_block':
      case 'async_block':
      case 'const_block': {
        const b = n.namedChildren.find((c) => c?.type === 'block');
        return b ? this.block(b, scope, act) : UNKNOWN;
      }
      case 'if_expression':
        return this.ifExpr(n, scope, act);
      case 'match_expression':
        return this.matchExpr(n, scope, act);
      case 'for_expression':
        return this.forExpr(n, scope, act);
      case 'while_expression':
      case 'loop_expression': {
        const body = n.childForFieldName('body');
        const cond = n.childForFieldName('condition');
        this.maybeRun(act, () => {
          if (cond) this.expr(cond, scope, act);
          if (body) this.block(body, new Scope(scope), act);
        });
        // What follows a `loop` runs only if it breaks: not known.
        if (n.type === 'loop_expression') act.sure = false;
        return UNKNOWN;
      }
      case 'return_expression': {
        const inner = n.namedChildren[0];
        const v = inner ? this.expr(inner, scope, act) : UNIT;
        if (this.stopped(act)) return UNKNOWN;
        act.returns.push(v);
        act.returned = this.sure(act) ? 'sure' : 'maybe';
        return UNKNOWN;
      }
      case 'try_expression': {
        const inner = n.namedChildren[0];
        const v = inner ? this.expr(inner, scope, act) : UNKNOWN;
        if (v.k === 'some') return v.v;
        if (v.k === 'str' || v.k === 'num' || v.k === 'bool') return v;
        // `None?` / `Err(_)?` leaves the function; an unknown one may.
        const leaves: 'sure' | 'maybe' = v.k === 'none' && this.sure(act) ? 'sure' : 'maybe';
        this.leave(act, leaves);
        return UNKNOWN;
      }
      case 'assignment_expression':
      case 'compound_assignment_expr': {
        const left = n.childForFieldName('left');
        const right = n.childForFieldName('right');
        let v = right ? this.expr(right, scope, act) : UNKNOWN;
        if (left?.type !== 'identifier') return UNIT;
        if (n.type === 'compound_assignment_expr') {
          const old = scope.get(left.text) ?? UNKNOWN;
          const op = n.childForFieldName('operator')?.text ?? '';
          v = arithmetic(op.replace('=', ''), old, v);
        }
        const before = scope.get(left.text);
        // Assigned in code that may not run: the variable may hold either value.
        scope.assign(left.text, this.sure(act) || (before && same(before, v)) ? v : UNKNOWN);
        return UNIT;
      }
      case 'closure_expression': {
        // `|x|` or `|x: &str|`: the pattern of each parameter.
        const params = (n.childForFieldName('parameters')?.namedChildren ?? [])
          .map((p) => (p?.type === 'parameter' ? p.childForFieldName('pattern') : p))
          .filter((p): p is Node => p !== null);
        const body = n.childForFieldName('body');
        return body ? { k: 'fn', params, body, scope } : UNKNOWN;
      }
      case 'call_expression':
        return this.call(n, scope, act);
      case 'macro_invocation':
        return this.macro(n, scope, act);
      case 'generic_function': {
        const f = n.childForFieldName('function');
        return f ? this.expr(f, scope, act) : UNKNOWN;
      }
      default:
        return UNKNOWN;
    }
  }

  /** The function or process may have been left here (surely or maybe). */
  private leave(act: Activation, how: 'sure' | 'maybe'): void {
    if (act.returned === 'sure') return;
    act.returned = how === 'sure' ? 'sure' : act.returned === 'no' ? 'maybe' : act.returned;
    act.returns.push(UNKNOWN);
  }

  private name(name: string, scope: Scope): Value {
    const v = scope.get(name);
    if (v) return v;
    if (name === 'None') return NONE;
    const c = this.consts.get(name);
    if (c) {
      const known = this.constValues.get(name);
      if (known) return known;
      this.constValues.set(name, UNKNOWN);
      const value = c.childForFieldName('value');
      const out = value ? this.expr(value, new Scope(undefined), { sure: true, returned: 'no', returns: [], probe: false }) : UNKNOWN;
      this.constValues.set(name, out);
      return out;
    }
    const fn = this.fns.get(name);
    if (fn) return { k: 'fn', params: [], body: fn, scope: undefined, item: fn };
    return UNKNOWN;
  }

  private path(text: string): Value {
    const p = this.pathOf(text);
    if (p === 'None' || p.endsWith('Option::None')) return NONE;
    const method = STD_METHOD_PATH.exec(p);
    return method ? { k: 'method', name: method[1]! } : UNKNOWN;
  }

  private binary(n: Node, scope: Scope, act: Activation): Value {
    const op = n.childForFieldName('operator')?.type ?? '';
    const left = n.childForFieldName('left');
    const right = n.childForFieldName('right');
    if (!left || !right) return UNKNOWN;
    if (op === '&&' || op === '||') {
      const stop = op === '&&' ? false : true;
      const l = this.condition(left, scope, act);
      if (l.k === 'bool' && l.v === stop) return bool(stop);
      // The right side runs only when the left does not decide.
      const r = l.k === 'bool' ? this.condition(right, scope, act) : this.maybeRun(act, () => this.condition(right, scope, act));
      if (r.k === 'bool' && r.v === stop) return bool(stop);
      return l.k === 'bool' && r.k === 'bool' ? bool(!stop) : UNKNOWN;
    }
    const l = asNumber(this.expr(left, scope, act));
    const r = asNumber(this.expr(right, scope, act));
    switch (op) {
      case '==':
        return eq(l, r);
      case '!=': {
        const e = eq(l, r);
        return e.k === 'bool' ? bool(!e.v) : UNKNOWN;
      }
      case '<':
      case '<=':
      case '>':
      case '>=':
        if (l.k !== 'num' || r.k !== 'num') return UNKNOWN;
        return bool(op === '<' ? l.v < r.v : op === '<=' ? l.v <= r.v : op === '>' ? l.v > r.v : l.v >= r.v);
      default:
        return arithmetic(op, l, r);
    }
  }

  /**
   * A condition's value; when unknown, what the header rules of build-script-cfgs.ts say of it
   * (`version.minor >= 40`, `!rustc.nightly`: the compiler's version and channel).
   */
  private condition(n: Node, scope: Scope, act: Activation): Value {
    const v = this.expr(n, scope, act);
    if (v.k !== 'unknown') return v;
    const h = headerValue(`if ${n.text.replace(/\s+/g, ' ')}`);
    return h === undefined ? UNKNOWN : bool(h);
  }

  private ifExpr(n: Node, scope: Scope, act: Activation): Value {
    const cond = n.childForFieldName('condition');
    const then = n.childForFieldName('consequence');
    const alt = n.childForFieldName('alternative');
    const inner = new Scope(scope);
    let c: boolean | undefined;
    if (!cond) c = undefined;
    else if (cond.type === 'let_condition') {
      const pat = cond.childForFieldName('pattern');
      const value = cond.childForFieldName('value');
      const v = value ? this.versionRead(value, this.expr(value, scope, act)) : UNKNOWN;
      c = pat ? this.matches(pat, v, inner) : undefined;
      if (c === undefined) {
        if (pat) for (const id of patternNames(pat)) inner.set(id, UNKNOWN);
        c = headerValue(`if ${cond.text.replace(/\s+/g, ' ')}`);
      }
    } else {
      const v = this.condition(cond, scope, act);
      c = v.k === 'bool' ? v.v : undefined;
    }
    const runThen = (): Value => (then ? this.block(then, inner, act) : UNIT);
    const runElse = (): Value => {
      const e = alt?.namedChildren[0];
      return e ? this.expr(e, scope, act) : UNIT;
    };
    if (c === true) return runThen();
    if (c === false) return runElse();
    const a = this.maybeRun(act, runThen);
    const b = this.maybeRun(act, runElse);
    return same(a, b) ? a : UNKNOWN;
  }

  /**
   * The value of a call that reads the compiler's version, when unknown: on the assumed build the
   * version can be read, so it is `Some`/`Ok` of an unknown (`match rustc_minor() { Some(v) =>
   * v, None => return }` does not return).
   */
  private versionRead(callee: Node, v: Value): Value {
    if (v.k !== 'unknown' || callee.type !== 'call_expression') return v;
    const name = calleeName(callee);
    return name && VERSION_HELPER.test(name) ? some(RUSTC_VERSION.test(name) ? RUSTC_MINOR : UNKNOWN) : v;
  }

  private matchExpr(n: Node, scope: Scope, act: Activation): Value {
    const scrutinee = n.childForFieldName('value');
    const v = scrutinee ? this.versionRead(scrutinee, this.expr(scrutinee, scope, act)) : UNKNOWN;
    const arms = n.childForFieldName('body')?.namedChildren.filter((a) => a?.type === 'match_arm') ?? [];
    const values: Value[] = [];
    let sureSoFar = true;
    for (const arm of arms) {
      if (!arm) continue;
      const pat = arm.childForFieldName('pattern');
      const body = arm.childForFieldName('value');
      const inner = new Scope(scope);
      const patNode = pat?.namedChildren.find(
        (c) => c !== null && c.type !== 'condition' && c.id !== pat.childForFieldName('condition')?.id,
      );
      let m: boolean | undefined = pat ? (patNode ? this.matches(patNode, v, inner) : true) : undefined;
      const guard = pat?.childForFieldName('condition');
      if (m !== false && guard) {
        const g = this.expr(guard, inner, act);
        m = g.k === 'bool' ? (g.v ? m : false) : undefined;
      }
      if (m === false) continue;
      const run = (): Value => (body ? this.expr(body, inner, act) : UNIT);
      if (m === true && sureSoFar) return run();
      values.push(this.maybeRun(act, run));
      if (m === true) break;
      sureSoFar = false;
    }
    const first = values[0];
    return first && values.every((x) => same(x, first)) ? first : UNKNOWN;
  }

  private forExpr(n: Node, scope: Scope, act: Activation): Value {
    const pat = n.childForFieldName('pattern');
    const value = n.childForFieldName('value');
    const body = n.childForFieldName('body');
    const it = value ? this.expr(value, scope, act) : UNKNOWN;
    if (!pat || !body) return UNIT;
    const jumps = body.descendantsOfType(['break_expression', 'continue_expression']).some((x) => x !== null);
    if (it.k === 'list' && it.v.length <= MAX_UNROLL && !jumps) {
      for (const el of it.v) {
        const inner = new Scope(scope);
        this.bind(pat, el, inner);
        this.block(body, inner, act);
        if (this.stopped(act)) break;
      }
      return UNIT;
    }
    this.maybeRun(act, () => {
      const inner = new Scope(scope);
      this.bind(pat, it.k === 'list' && it.v.length === 1 ? it.v[0]! : UNKNOWN, inner);
      this.block(body, inner, act);
    });
    return UNIT;
  }

  // ——— patterns ———

  /** Binds a pattern's names to the parts of `v` (unknown where it cannot tell). */
  private bind(pat: Node, v: Value, scope: Scope): void {
    if (this.matches(pat, v, scope) === undefined) for (const id of patternNames(pat)) scope.set(id, UNKNOWN);
  }

  /** Whether `v` matches the pattern (binding its names in `scope`); undefined when unknown. */
  private matches(pat: Node, v: Value, scope: Scope): boolean | undefined {
    switch (pat.type) {
      case 'identifier':
        if (pat.text === 'None') return v.k === 'none' ? true : v.k === 'unknown' && !v.version ? undefined : false;
        scope.set(pat.text, v);
        return true;
      case '_':
        return true;
      case 'match_pattern': {
        const inner = pat.namedChildren[0];
        return inner ? this.matches(inner, v, scope) : true; // `_`
      }
      case 'mut_pattern':
      case 'ref_pattern':
      case 'reference_pattern': {
        const inner = pat.namedChildren[pat.namedChildren.length - 1];
        return inner ? this.matches(inner, v, scope) : undefined;
      }
      case 'string_literal':
      case 'raw_string_literal':
      case 'integer_literal':
      case 'boolean_literal': {
        const lit = this.expr(pat, scope, { sure: true, returned: 'no', returns: [], probe: false });
        const e = eq(v, lit);
        return e.k === 'bool' ? e.v : undefined;
      }
      case 'or_pattern': {
        let out: boolean | undefined = false;
        for (const alt of pat.namedChildren) {
          if (!alt) continue;
          const m = this.matches(alt, v, scope);
          if (m === true) return true;
          if (m === undefined) out = undefined;
        }
        return out;
      }
      case 'tuple_struct_pattern': {
        const type = pat.childForFieldName('type')?.text.split('::').pop();
        const inner = pat.namedChildren.filter((c) => c !== null && c.id !== pat.childForFieldName('type')?.id);
        if (type === 'Some' || type === 'Ok') {
          if (v.k === 'some') return inner[0] ? this.matches(inner[0], v.v, scope) : true;
          if (v.k === 'none') return false;
          // rustc's version can be read on the assumed build.
          if (v.k === 'unknown' && v.version) return inner[0] ? this.matches(inner[0], v, scope) : true;
          if (v.k === 'unknown') return undefined;
          // A plain value stands for `Ok(value)` (`env::var` read as its string).
          return inner[0] ? this.matches(inner[0], v, scope) : true;
        }
        if (type === 'Err') return v.k === 'none' ? true : v.k === 'unknown' && !v.version ? undefined : false;
        return undefined;
      }
      case 'tuple_pattern': {
        const parts = pat.namedChildren.filter((c): c is Node => c !== null);
        if (v.k !== 'list' || v.v.length !== parts.length) return undefined;
        let out: boolean | undefined = true;
        parts.forEach((p, i) => {
          const m = this.matches(p, v.v[i]!, scope);
          if (m === false) out = false;
          else if (m === undefined && out) out = undefined;
        });
        return out;
      }
      default:
        return undefined;
    }
  }

  // ——— calls ———

  private args(n: Node, scope: Scope, act: Activation): Value[] {
    const list = n.childForFieldName('arguments');
    return (list?.namedChildren ?? [])
      .filter((a) => a !== null && a.type !== 'line_comment' && a.type !== 'block_comment')
      .map((a) => this.expr(a!, scope, act));
  }

  private call(n: Node, scope: Scope, act: Activation): Value {
    const f = n.childForFieldName('function');
    if (!f) return UNKNOWN;
    if (f.type === 'field_expression') return this.method(n, f, scope, act);
    const callee = f.type === 'generic_function' ? f.childForFieldName('function') : f;
    const text = callee?.text ?? '';
    const args = this.args(n, scope, act);
    // A function or closure of the script.
    const local =
      callee?.type === 'identifier' ? (scope.get(text) ?? (this.fns.has(text) ? this.name(text, scope) : undefined)) : undefined;
    if (local?.k === 'fn') {
      const v = local.item ? this.callFunction(local.item, args, this.sure(act)) : this.callClosure(local, args, this.sure(act));
      return v.k === 'unknown' && RUSTC_VERSION.test(text) ? RUSTC_MINOR : v;
    }
    const path = this.pathOf(text);
    const last = path.split('::').pop() ?? '';
    if (last === 'Some' || last === 'Ok') return args[0] ? some(args[0]) : UNKNOWN;
    if (last === 'Err') return NONE;
    if (/(^|::)env::var(_os)?$/.test(path) || ((last === 'var' || last === 'var_os') && path.startsWith('std::env'))) {
      return args[0]?.k === 'str' ? cargoEnv(args[0].v, this.ctx.features, this.ctx.pkg) : UNKNOWN;
    }
    // `fs::metadata(p).is_ok()`: whether a file of the package is there.
    if (/(^|::)fs::(metadata|symlink_metadata|read_dir|File::open)$/.test(path)) {
      const e = args[0]?.k === 'str' ? this.ctx.exists(args[0].v) : undefined;
      return e === undefined ? UNKNOWN : e ? some(UNKNOWN) : NONE;
    }
    if (/(^|::)Path(Buf)?::(new|from)$/.test(path) || /(^|::)String::from$/.test(path)) return args[0] ?? UNKNOWN;
    if (/(^|::)process::exit$/.test(path) || (last === 'exit' && path.startsWith('std::process'))) {
      this.exit(act);
      return UNKNOWN;
    }
    if (/(^|::)Command::new$/.test(path)) {
      act.probe = true;
      return UNKNOWN;
    }
    const auto = autocfgFunction(path, args);
    if (auto) return this.autocfg(auto, n, act);
    // Another crate's function: unknown (rustc's version from `rustc_version::version()`); closures given to it may run.
    this.runClosures(args, act);
    return RUSTC_VERSION.test(path) ? RUSTC_MINOR : UNKNOWN;
  }

  /**
   * The process ends here (`exit`, a panic, `unwrap` of an error). Not in a compiler probe's code
   * that may not run: that is its handling of a compiler that cannot run, which on the assumed
   * build can.
   */
  private exit(act: Activation): void {
    if (!this.sure(act) && act.probe) return;
    if (this.sure(act)) this.exited = 'sure';
    else if (this.exited === 'no') this.exited = 'maybe';
  }

  /** Closures handed to code the evaluator does not follow may run: their cfg lines are unknown. */
  private runClosures(args: readonly Value[], act: Activation): void {
    for (const a of args) if (a.k === 'fn') this.maybeRun(act, () => this.callClosure(a, [], false));
  }

  private method(n: Node, f: Node, scope: Scope, act: Activation): Value {
    const recvNode = f.childForFieldName('value');
    const name = f.childForFieldName('field')?.text ?? '';
    const recv = recvNode ? this.expr(recvNode, scope, act) : UNKNOWN;
    const args = this.args(n, scope, act);
    if (recv.k === 'autocfg') return this.autocfg(autocfgMethod(name, args), n, act);
    // An emitter of a value the run cannot tell (an `AutoCfg` it lost track of): any cfg may be printed.
    if (recv.k === 'unknown' && isEmitter(name) && this.usesAutocfg()) this.closed = false;
    const sure = this.sure(act);
    const hooks: MethodHooks = {
      apply: (fn, x) =>
        fn?.k === 'fn' ? this.callClosure(fn, x, sure) : fn?.k === 'method' && x[0] ? stdMethod(fn.name, x[0], x.slice(1), hooks) : UNKNOWN,
      runClosures: () => this.runClosures(args, act),
      exit: () => this.exit(act),
      exists: (path) => this.ctx.exists(path),
    };
    return stdMethod(name, recv, args, hooks);
  }

  /** What a call of autocfg prints: a cfg it surely prints where the code surely runs is set, else unknown. */
  private autocfg(call: AutoCfgCall, n: Node, act: Activation): Value {
    // (A call in a macro's arguments is a snippet's node: the scan of the script does not see those.)
    if (n.tree === this.root.tree) this.autocfgCalls.add(n.startIndex);
    for (const e of call.emits) {
      if (e.cfg === undefined || !NAME.test(e.cfg)) this.closed = false;
      else if (e.sure && this.sure(act)) this.set.add(e.cfg);
      else this.maybe.add(e.cfg);
    }
    return call.value;
  }

  /** Start indexes of the calls of autocfg the run followed. */
  private readonly autocfgCalls = new Set<number>();

  /** Whether the script names autocfg (outside comments). */
  private usesAutocfg(): boolean {
    return (this.namesAutocfg ??= /\bautocfg\b/.test(withoutComments(this.root.text)));
  }

  private namesAutocfg: boolean | undefined;

  /**
   * Whether a call that may print cfg lines through autocfg (`autocfg::emit`, `ac.emit_…`) was
   * left where the run may still reach it (in code it does not follow): any cfg may be set.
   */
  private autocfgLeft(): boolean {
    if (!this.usesAutocfg()) return false;
    // A `macro_rules!` of the script is not followed: one that calls an emitter may print anything.
    for (const m of this.root.descendantsOfType('macro_definition')) if (m && /\bemit(_\w+)?\s*\(/.test(m.text)) return true;
    for (const c of this.root.descendantsOfType('call_expression')) {
      if (!c || this.autocfgCalls.has(c.startIndex)) continue;
      const f = c.childForFieldName('function');
      const callee = f?.type === 'generic_function' ? f.childForFieldName('function') : f;
      const name = callee?.type === 'field_expression' ? callee.childForFieldName('field')?.text : callee?.text.split('::').pop();
      if (name && isEmitter(name.trim()) && this.reachable(c)) return true;
    }
    return false;
  }

  // ——— macros ———

  private macro(n: Node, scope: Scope, act: Activation): Value {
    const name = macroName(n);
    switch (name) {
      case 'println':
      case 'print': {
        const args = this.macroArgs(n);
        if (!args) {
          // Arguments it cannot read: a cfg line among them may be printed.
          for (const lit of n.descendantsOfType(['string_literal', 'raw_string_literal'])) {
            const line = lit ? unquote(lit) : '';
            if (!lit || !EMIT.test(line)) continue;
            this.printed.add(lit.startIndex);
            const name = cfgName(line);
            if (name === undefined) this.closed = false;
            else this.maybe.add(name);
          }
          return UNIT;
        }
        if (args.length === 0) return UNIT;
        const fmtNode = args[0]!;
        const s = this.format(args, scope, act);
        const isLiteral = fmtNode.type === 'string_literal' || fmtNode.type === 'raw_string_literal';
        const literal = isLiteral ? this.literalAt(n, fmtNode) : undefined;
        if (s.k !== 'str') {
          // A cfg line whose name is not known: any cfg may be set.
          if (isLiteral && EMIT.test(unquote(fmtNode))) {
            if (literal !== undefined) this.printed.add(literal);
            this.closed = false;
          }
          return UNIT;
        }
        const m = EMIT.exec(s.v.trim());
        if (!m) return UNIT;
        if (literal !== undefined) this.printed.add(literal);
        const cfg = cfgName(s.v.trim());
        if (cfg === undefined) {
          this.closed = false;
          return UNIT;
        }
        if (this.sure(act)) this.set.add(cfg);
        else this.maybe.add(cfg);
        return UNIT;
      }
      case 'format':
      case 'concat': {
        const args = this.macroArgs(n);
        if (!args) return UNKNOWN;
        if (name === 'concat') {
          const parts = args.map((a) => this.expr(a, scope, act));
          return parts.every((p) => p.k === 'str' || p.k === 'num' || p.k === 'bool')
            ? str(parts.map((p) => String((p as { v: unknown }).v)).join(''))
            : UNKNOWN;
        }
        return this.format(args, scope, act);
      }
      case 'panic':
      case 'unreachable':
      case 'todo':
      case 'unimplemented':
        this.exit(act);
        return UNKNOWN;
      case 'cfg': {
        const tt = n.namedChildren.find((c) => c?.type === 'token_tree');
        const v = tt ? evalCfgAttr(`cfg${tt.text}`, this.buildFeatures) : undefined;
        return v === undefined ? UNKNOWN : bool(v);
      }
      case 'env':
      case 'option_env':
        return UNKNOWN;
      case 'vec': {
        const args = this.macroArgs(n);
        return args ? { k: 'list', v: args.map((a) => this.expr(a, scope, act)) } : UNKNOWN;
      }
      default: {
        // `writeln!(child.stdin…, "#![feature({})]", f)`, `assert!(…)`: their arguments are evaluated (calls in them run).
        const args = this.macroArgs(n);
        for (const a of args ?? []) this.expr(a, scope, act);
        return UNKNOWN;
      }
    }
  }

  /** The start index in the script of a macro argument (a snippet's node) that is a literal of the script's own text. */
  private literalAt(macro: Node, arg: Node): number | undefined {
    const tt = macro.namedChildren.find((c) => c?.type === 'token_tree');
    if (!tt) return undefined;
    for (const c of tt.namedChildren)
      if (c && (c.type === 'string_literal' || c.type === 'raw_string_literal') && c.text === arg.text) return c.startIndex;
    return undefined;
  }

  /** A macro's arguments, parsed as call arguments (a snippet of their text). */
  private macroArgs(n: Node): Node[] | undefined {
    const tt = n.namedChildren.find((c) => c?.type === 'token_tree');
    if (!tt) return undefined;
    const inner = tt.text.slice(1, -1);
    if (inner.trim() === '') return [];
    const tree = this.ctx.parse(`fn __m() { __f(${inner}); }`);
    if (!tree) return undefined;
    this.trees.push(tree);
    const call = tree.rootNode.descendantsOfType('call_expression')[0];
    if (!call || tree.rootNode.hasError) return undefined;
    return (call.childForFieldName('arguments')?.namedChildren ?? []).filter((a): a is Node => a !== null);
  }

  /** `format!`'s string: `{}`, `{0}`, `{name}` and `{{`/`}}` over known values. */
  private format(args: Node[], scope: Scope, act: Activation): Value {
    const fmt = this.expr(args[0]!, scope, act);
    const positional: Value[] = [];
    const named = new Map<string, Value>();
    for (const a of args.slice(1)) {
      if (a.type === 'assignment_expression' && a.childForFieldName('left')?.type === 'identifier') {
        const right = a.childForFieldName('right');
        named.set(a.childForFieldName('left')!.text, right ? this.expr(right, scope, act) : UNKNOWN);
      } else positional.push(this.expr(a, scope, act));
    }
    return renderFormat(fmt, positional, named, (name) => scope.get(name));
  }
}

/** The cfg a `cargo:rustc-cfg=…` line sets (`name`, or `feature:x` for `feature="x"`); undefined for another form. */
function cfgName(line: string): string | undefined {
  const m = EMIT.exec(line);
  if (!m) return undefined;
  const body = m[1]!.trim();
  if (NAME.test(body)) return body;
  const f = FEATURE.exec(body);
  return f ? featureCfg(f[1]!) : undefined;
}

/** The names a pattern binds. */
function patternNames(pat: Node): string[] {
  if (pat.type === 'identifier') return pat.text === 'None' ? [] : [pat.text];
  return pat.descendantsOfType('identifier').flatMap((i) => {
    if (!i) return [];
    // `Some(x)`: `Some` is the variant, not a name bound.
    const p = i.parent;
    if (p?.type === 'tuple_struct_pattern' && p.childForFieldName('type')?.id === i.id) return [];
    if (p?.type === 'scoped_identifier') return [];
    return [i.text];
  });
}

/** A callee's last name (`rustc_minor_version`, `version` of `rustc_version::version`, `read` of `x.read()`). */
function calleeName(call: Node): string | undefined {
  const f = call.childForFieldName('function');
  return f?.type === 'field_expression' ? f.childForFieldName('field')?.text : f?.text.split('::').pop();
}

/** rustc's (minor) version compares as the assumed compiler's. */
function asNumber(v: Value): Value {
  return v.k === 'unknown' && v.version ? { k: 'num', v: ASSUMED_RUSTC_MINOR } : v;
}

/**
 * What a probe the compiler fails gives, by its declared return type: `false`, or `Some`/`Ok` of
 * an exit status that is no success (a status is read as whether it succeeded).
 */
function failedProbe(fn: Node): Value {
  const ret = fn.childForFieldName('return_type')?.text.replace(/\s+/g, '') ?? '';
  if (ret === 'bool') return bool(false);
  if (/^(?:std::)?(?:option::)?Option<|^(?:std::)?(?:(?:io|result)::)?Result</.test(ret)) return some(bool(false));
  return UNKNOWN;
}

/** A macro invocation's name (`println` of `std::println!`). */
function macroName(n: Node): string {
  return n.childForFieldName('macro')?.text.split('::').pop() ?? '';
}

/** Whether a macro invocation is an item of its file (`include!("x.rs");` at the top). */
function atTopLevel(m: Node): boolean {
  const p = m.parent;
  return p?.type === 'source_file' || (p?.type === 'expression_statement' && p.parent?.type === 'source_file');
}
