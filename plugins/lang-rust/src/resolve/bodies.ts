/**
 * Phase B's reading of function bodies: walks each body of one file in order, keeping the
 * types of local bindings (`let x: T`, `let x = T::new()`, parameters, `self`, patterns of
 * `if let`, `match` and `for`), and resolves every call: paths (`f()`, `Type::new()`,
 * `Self::f()`, `<T as Trait>::f()`, `T::default()` on a bound), and method calls on receivers
 * whose type is known (fields, returns, `?`, `&`/`Box`/`Rc`/`Arc`, indexing). Calls written in
 * macro arguments (`format!("{}", x.name())`) are read by parsing the arguments as expressions.
 */
import type { Node as TsNode, Tree } from 'web-tree-sitter';
import { evalCfgAttr } from '../crates/cfg.js';
import { ITEM_TYPES, ownDescendants } from '../syntax/extract.js';
import { pathSegments, typeOf } from '../syntax/type-syntax.js';
import { compileRules, expand } from '../syntax/macro-rules.js';
import { type FileIR, type Item, PRIMITIVE_TYPE_NAMES, type TypeExpr, typePaths } from '../syntax/file-ir.js';
import { type ItemRef, itemOf, type Names, refKey, type Res, type Scope } from './names.js';
import type { Module } from './program.js';
import {
  closureParams,
  ioMethodResult,
  MAPS,
  mapEntry,
  NUMBER_TYPES,
  PRELUDE_TRAIT_METHODS,
  SELF_CONSTRUCTORS,
  STD_FUNCTION_NAMES,
  STD_INHERENT_METHODS,
  stdFunctionResult,
  stdMethodResult,
} from './std-model.js';
import {
  CALLABLE,
  deref,
  derefOnce,
  elementOf,
  fnBound,
  INTO_ITERATING_TRAITS,
  isPinProjected,
  ITERATING_TRAITS,
  outsideType,
  PIN_PROJECTION,
  SLICE,
  type Ty,
  type TyCtx,
  type Types,
} from './types.js';

/** How one call site fared. */
export interface CallSite {
  /** The function item whose body holds the call. */
  caller: number;
  targets: ItemRef[];
  outcome: 'resolved' | 'external' | 'unknown';
  /** The call is in a body a `macro_rules!` of the file wrote, or in the expansion of one invoked in the body (as this resolver's expander read it). */
  expanded?: boolean;
  /** The call site is in a macro's expansion (its argument calls are counted from the arguments). */
  inExpansion?: boolean;
}

/** Parses a snippet of Rust (the arguments of macros), or undefined when the parser is unavailable. */
export type SnippetParser = (text: string) => Tree | undefined;

/** How deep macros are expanded into macros while a type is read. */
const MAX_MACRO_DEPTH = 3;
/**
 * How deep the calls of macros a body invokes are followed into the macros their expansions
 * invoke (a tt-muncher recursing once per token it takes), and how many such nested expansions
 * one invocation in the body reads at most (a macro invoking itself twice per step doubles them
 * at each one): the work stays in proportion to the body.
 */
const MAX_EXPANSION_NESTING = 24;
const MAX_NESTED_EXPANSIONS = 256;
/**
 * Deepest syntax walked in a body (a generated `a + b + …` of thousands of terms nests that
 * deep): past it the walk stops, well before the stack runs out. A stack overflow inside the
 * grammar's WebAssembly would leave it broken for every later file of the session.
 */
const MAX_WALK_DEPTH = 1_000;
/** Deepest expression followed when inferring a type (a long method chain stops here). */
const MAX_INFER_DEPTH = 40;
/** Macros whose arguments are not expressions (they define items or take patterns and tokens). */
const NON_EXPRESSION_MACROS = new Set([
  'macro_rules',
  'thread_local',
  'lazy_static',
  'cfg_if',
  'bitflags',
  'include',
  'include_str',
  'include_bytes',
  'concat',
  'stringify',
  'env',
  'option_env',
  'line',
  'column',
  'file',
  'module_path',
  'compile_error',
]);

/** Local bindings of a block and the blocks around it. */
class Env {
  private readonly vars = new Map<string, Ty | undefined>();
  constructor(readonly parent?: Env) {}
  bind(name: string, ty: Ty | undefined): void {
    this.vars.set(name, ty);
  }
  /** The bindings made in this scope (not its parents'). */
  own(): IterableIterator<[string, Ty | undefined]> {
    return this.vars.entries();
  }
  /**
   * `x = value` for a binding whose type is not known (`let content;` that a macro assigns): its
   * type is the value's, where the binding was made.
   */
  settle(name: string, ty: Ty): void {
    if (this.vars.has(name)) {
      if (this.vars.get(name) === undefined) this.vars.set(name, ty);
    } else this.parent?.settle(name, ty);
  }
  /** `found` when a local binding has the name (even of unknown type). */
  get(name: string): { found: boolean; ty?: Ty } {
    if (this.vars.has(name)) {
      const ty = this.vars.get(name);
      return ty ? { found: true, ty } : { found: true };
    }
    return this.parent ? this.parent.get(name) : { found: false };
  }
}

/** A resolved callee with what the call returns. */
interface Callee {
  targets: ItemRef[];
  outcome: CallSite['outcome'];
  ret?: Ty;
  /** For a method call: the receiver's type and the method, to type the closures passed to it. */
  recv?: Ty;
  method?: string;
  /** The callee's own type parameters the call's arguments give (`guard(table, |t| …)`: `T`), by position. */
  generics?: (Ty | undefined)[];
}

/**
 * @example
 * ```ts
 * const sites = new BodyResolver(names, types, (t) => parser.parse(t)).resolve(ir, bodies);
 * ```
 */
export class BodyResolver {
  private scope!: Scope;
  private ctx!: TyCtx;
  private caller = -1;
  private file: FileIR | undefined;
  private sites: CallSite[] = [];
  private readonly callMemo = new Map<string, Callee>();
  private readonly macroArgs = new Map<string, TsNode | null>();
  private readonly trees: Tree[] = [];
  /** Each snippet tree's number in macro keys (the file's own tree is 0). */
  private readonly treeIds = new Map<Tree, number>();
  private depth = 0;
  private walkDepth = 0;
  /** Nested expansions the invocation being walked may still read. */
  private expansionBudget = MAX_NESTED_EXPANSIONS;
  /** Inside the expansion of a macro read for its type (its calls are not sites). */
  private expanding = 0;
  /** Inside the expansion of a macro invoked in the body (its calls are sites, marked). */
  private inExpansion = 0;
  private expanded: ReadonlySet<number> = new Set();
  /** Bodies cut short by a resolver limit (depth, expansions); their calls before the limit are kept. */
  faults = 0;
  /** The body being walked reached a limit. */
  private cut = false;

  constructor(
    private readonly names: Names,
    private readonly types: Types,
    private readonly parseSnippet: SnippetParser,
  ) {}

  /** Every call site of every function body of `file` (whose tree is alive), resolved. */
  resolve(file: FileIR, bodies: Map<number, TsNode>, expanded: ReadonlySet<number> = new Set()): CallSite[] {
    this.expanded = expanded;
    this.file = file;
    this.sites = [];
    try {
      for (const [fn, body] of bodies) {
        const mod = this.names.moduleFor(file, fn);
        if (!mod) continue;
        const ref: ItemRef = { file, i: fn, mod };
        this.scope = { mod, fn };
        this.ctx = this.types.fnCtx(ref);
        this.ctx.scope = this.scope;
        this.caller = fn;
        this.callMemo.clear();
        this.expansionBudget = MAX_NESTED_EXPANSIONS;
        this.cut = false;
        const env = new Env();
        const it = itemOf(ref);
        if (it.selfParam) env.bind('self', (it.selfType && this.types.of(it.selfType, this.ctx)) || this.ctx.self);
        for (const p of it.params ?? []) if (p.name) env.bind(p.name, this.types.of(p.type, this.ctx));
        try {
          this.prepareMacros(body);
          this.walk(body, env);
          if (this.cut) this.faults++;
        } catch (e) {
          // A body past the resolver's limits (a pathologically deep expression) costs that body, not the file.
          if (!(e instanceof RangeError)) throw e;
          this.faults++;
        }
      }
    } finally {
      for (const t of this.trees) t.delete();
      this.trees.length = 0;
      this.treeIds.clear();
      this.macroArgs.clear();
      this.blockEnvs.clear();
    }
    return this.sites;
  }

  // ——— macros ———

  private macroKey(n: TsNode): string {
    return `${this.treeIds.get(n.tree) ?? 0}:${n.startIndex}`;
  }

  /** A node's identity in the file and its snippets: its tree, start and end (a call and its callee can share a start). */
  private nodeKey(n: TsNode): string {
    return `${this.macroKey(n)}:${n.endIndex}`;
  }

  /** Parses the arguments of every macro invocation under `root` as call arguments, in one snippet. */
  private prepareMacros(root: TsNode): void {
    const found = root.type === 'macro_invocation' ? [root] : ownDescendants(root, 'macro_invocation');
    if (found.length === 0) return;
    let text = '';
    const order: string[] = [];
    for (const m of found) {
      const key = this.macroKey(m);
      const inner = macroInner(m);
      if (inner === undefined || !mayHoldCalls(m, inner)) {
        this.macroArgs.set(key, null);
        continue;
      }
      order.push(key);
      text += `fn __m() { __f(${inner}\n); }\n`;
    }
    if (order.length === 0) return;
    const tree = this.parseSnippet(text);
    if (!tree) return;
    this.keep(tree);
    let k = 0;
    for (const fn of tree.rootNode.namedChildren) {
      if (fn?.type !== 'function_item' || k >= order.length) continue;
      const call = fn.childForFieldName('body')?.namedChildren.find((c) => c?.type === 'expression_statement')?.namedChildren[0];
      const args = call?.type === 'call_expression' ? call.childForFieldName('arguments') : null;
      this.macroArgs.set(order[k++]!, args ?? null);
    }
  }

  /** Keeps a snippet's tree alive (and numbered) until the file is resolved. */
  private keep(tree: Tree): void {
    this.trees.push(tree);
    this.treeIds.set(tree, this.trees.length);
  }

  private argsOfMacro(m: TsNode): TsNode | undefined {
    const key = this.macroKey(m);
    if (!this.macroArgs.has(key)) this.prepareMacros(m);
    return this.macroArgs.get(key) ?? undefined;
  }

  // ——— the walk ———

  private walk(n: TsNode, env: Env): void {
    if (this.walkDepth >= MAX_WALK_DEPTH) {
      this.cut = true;
      return;
    }
    this.walkDepth++;
    try {
      this.walkInner(n, env);
    } finally {
      this.walkDepth--;
    }
  }

  private walkInner(n: TsNode, env: Env): void {
    switch (n.type) {
      case 'field_initializer':
        // `S { #[cfg(feature = "x")] a: f(), … }`: not compiled, not read (as a statement under it).
        if (!this.cfgOff(n)) for (const c of n.namedChildren) if (c) this.walk(c, env);
        return;
      case 'let_declaration': {
        const value = n.childForFieldName('value');
        if (value) this.walk(value, env);
        const alt = n.childForFieldName('alternative');
        if (alt) this.walk(alt, env);
        const t = n.childForFieldName('type');
        const ty = t ? this.types.of(typeOf(t), this.ctx) : value ? this.infer(value, env) : undefined;
        const pat = n.childForFieldName('pattern');
        if (pat) this.bindPattern(pat, ty, env);
        return;
      }
      case 'block':
        this.statements(n, new Env(env));
        return;
      case 'assignment_expression': {
        const left = n.childForFieldName('left');
        const right = n.childForFieldName('right');
        if (right) this.walk(right, env);
        if (left && left.type !== 'identifier') this.walk(left, env);
        if (left?.type === 'identifier' && right) {
          const ty = env.get(left.text).found ? this.infer(right, env) : undefined;
          if (ty) env.settle(left.text, ty);
        }
        return;
      }
      case 'closure_expression':
        this.closure(n, env, []);
        return;
      case 'for_expression': {
        const value = n.childForFieldName('value');
        if (value) this.walk(value, env);
        const inner = new Env(env);
        const pat = n.childForFieldName('pattern');
        if (pat) this.bindPattern(pat, value ? this.iterated(value, env) : undefined, inner);
        const body = n.childForFieldName('body');
        if (body) this.walk(body, inner);
        return;
      }
      case 'if_expression':
      case 'while_expression': {
        const cond = n.childForFieldName('condition');
        const inner = new Env(env);
        if (cond) this.condition(cond, env, inner);
        const body = n.childForFieldName('consequence') ?? n.childForFieldName('body');
        if (body) this.walk(body, inner);
        const alt = n.childForFieldName('alternative');
        if (alt) this.walk(alt, env);
        return;
      }
      case 'match_expression': {
        const value = n.childForFieldName('value');
        if (value) this.walk(value, env);
        const vt = value ? this.infer(value, env) : undefined;
        for (const arm of n.childForFieldName('body')?.namedChildren ?? []) {
          if (arm?.type !== 'match_arm' || this.cfgOff(arm)) continue;
          const inner = new Env(env);
          const pat = arm.childForFieldName('pattern');
          if (pat) {
            const guard = pat.childForFieldName('condition');
            for (const c of pat.namedChildren) if (c && c.id !== guard?.id) this.bindPattern(c, vt, inner);
            if (guard) this.walk(guard, inner);
          }
          const v = arm.childForFieldName('value');
          if (v) this.walk(v, inner);
        }
        return;
      }
      case 'call_expression': {
        this.call(n, env);
        const fn = n.childForFieldName('function');
        const target = fn?.type === 'generic_function' ? fn.childForFieldName('function') : fn;
        if (target?.type === 'field_expression') {
          const v = target.childForFieldName('value');
          if (v) this.walk(v, env);
        } else if (target && target.type !== 'identifier' && target.type !== 'scoped_identifier') this.walk(target, env);
        const args = n.childForFieldName('arguments');
        if (!args) return;
        const c = this.call(n, env);
        const params = c.method ? closureParams(this.iterView(c.recv, ITERATING_TRAITS), c.method) : undefined;
        let k = 0;
        for (const a of args.namedChildren) {
          if (!a) continue;
          if (NOT_ARGUMENTS.has(a.type)) {
            this.walk(a, env);
            continue;
          }
          if (a.type === 'closure_expression')
            this.closure(a, env, params ?? this.fnBoundParams(c, k, target?.type !== 'field_expression'));
          else this.walk(a, env);
          k++;
        }
        return;
      }
      case 'macro_invocation': {
        const args = this.argsOfMacro(n);
        if (args) this.walk(args, env);
        // Each invocation the body itself makes has its own budget of nested expansions.
        if (this.inExpansion === 0 && this.expanding === 0) this.expansionBudget = MAX_NESTED_EXPANSIONS;
        // A macro_rules! of the program: the calls its body makes, as the expansion reads them.
        const name = n.childForFieldName('macro')?.text;
        const body =
          name && this.expanding < MAX_MACRO_DEPTH && this.inExpansion < MAX_EXPANSION_NESTING ? this.expansionOf(n, name) : undefined;
        if (body) {
          this.inExpansion++;
          try {
            if (body.type === 'block' && isStatement(n)) this.macroStatements(n, body, env);
            else this.walk(body, env);
          } finally {
            this.inExpansion--;
          }
        }
        return;
      }
      default:
        if (ITEM_TYPES.has(n.type)) return;
        for (const c of n.namedChildren) if (c) this.walk(c, env);
    }
  }

  /** A block's statements, in order, in `env` (a statement under a cfg a default build leaves out is skipped). */
  private statements(block: TsNode, env: Env): void {
    let inactive = false;
    for (const c of block.namedChildren) {
      if (!c) continue;
      // As rust-analyzer greys it out.
      if (c.type === 'attribute_item') {
        if (this.attributeOff(c)) inactive = true;
        continue;
      }
      if (!inactive) this.walk(c, env);
      inactive = false;
    }
    this.blockEnvs.set(this.nodeKey(block), env);
  }

  /**
   * The bindings in force at the end of each block walked (by {@link nodeKey}): a block's
   * value is its tail read with them (`let p = { let mut p = Program::new(); …; p };`).
   */
  private readonly blockEnvs = new Map<string, Env>();

  /** Whether an attribute is a cfg a default build does not meet. */
  private attributeOff(attr: TsNode): boolean {
    const a = attr.namedChildren.find((x) => x?.type === 'attribute')?.text.replace(/\s+/g, ' ');
    return a !== undefined && evalCfgAttr(a, this.scope.mod.crate.features) === false;
  }

  /**
   * A match arm or field initializer under a cfg a default build does not meet: one of the
   * attributes that lead it. Not when the parser could not read it: tree-sitter-rust reads the
   * `#[cfg]`s of a struct pattern's fields (`Literal { #[cfg(a)] inner: x, #[cfg(not(a))] inner:
   * y }`) as the arm's, one of them always off.
   */
  private cfgOff(n: TsNode): boolean {
    const kids = n.namedChildren;
    if (kids.some((c) => c?.type === 'ERROR')) return false;
    for (const c of kids) {
      if (c?.type === 'line_comment' || c?.type === 'block_comment') continue;
      if (c?.type !== 'attribute_item') return false;
      if (this.attributeOff(c)) return true;
    }
    return false;
  }

  /**
   * The expansion of a macro invoked as a statement: its `let`s of a name the invocation passes
   * in (`inner_barrier!(ctx)` writing `let $ctx = &mut _ctx;`) bind that name for the statements
   * after it, as macro hygiene has it; the names the macro itself writes (`_ctx`) stay inside.
   * A rebinding whose type is not known leaves the caller's binding as it was.
   */
  private macroStatements(n: TsNode, body: TsNode, env: Env): void {
    const inner = new Env(env);
    this.statements(body, inner);
    const tt = n.namedChildren.find((c) => c?.type === 'token_tree');
    const passed = tt ? passedIdentifiers(tt) : new Set<string>();
    // A rebinding of a type not known keeps the caller's (`tokio::pin!(fut)` makes `Pin<&mut F>`, which derefs to it).
    for (const [name, ty] of inner.own()) if (passed.has(name) && (ty !== undefined || !env.get(name).found)) env.bind(name, ty);
  }

  /**
   * The parameter types of a closure passed as argument `k` to a function of the program, from
   * the `Fn*` bound of that parameter: `impl FnOnce(&ThreadData) -> T`, or a generic `F` bound
   * by `Fn(&A)` (where clauses too), read in the callee's context. `pathCall`: a call by path,
   * whose first argument is the receiver when the callee has `self`.
   */
  private fnBoundParams(c: Callee, k: number, pathCall: boolean): readonly (Ty | undefined)[] {
    for (const target of c.targets) {
      const it = itemOf(target);
      if (it.kind !== 'fn') continue;
      const p = it.params?.[pathCall && it.selfParam ? k - 1 : k];
      if (!p) continue;
      const fnArgs = fnSugarArgs(p.type, it, target.file);
      if (fnArgs) {
        const ctx = this.types.fnCtx(target, c.recv);
        // A generic of the callee the receiver does not bind is the caller's type argument, not
        // its bound (`Foo`'s own `visit` comes before `Visit::visit`): unknown (`&V` is unknown,
        // `EdgeIndex<Ix>` an EdgeIndex) — unless another argument gives it (`guard(table, |t| …)`).
        const open: TyCtx = {
          ...ctx,
          generics: new Map([...ctx.generics].map(([name, ty]) => [name, ty?.t === 'bounds' ? undefined : ty])),
        };
        it.generics?.forEach((g, i) => {
          const t = c.generics?.[i];
          if (t) open.generics.set(g.name, t);
        });
        return fnArgs.map((a) => this.types.of(a, open));
      }
    }
    return [];
  }

  /** The environment inside a closure, its parameters typed by their annotations or `known`. */
  private closureEnv(n: TsNode, env: Env, known: readonly (Ty | undefined)[]): Env {
    const inner = new Env(env);
    const params = n.childForFieldName('parameters');
    let k = 0;
    for (const p of params?.namedChildren ?? []) {
      if (!p) continue;
      if (p.type === 'parameter') {
        const t = p.childForFieldName('type');
        const pat = p.childForFieldName('pattern');
        if (pat) this.bindPattern(pat, t ? this.types.of(typeOf(t), this.ctx) : known[k], inner);
      } else this.bindPattern(p, known[k], inner);
      k++;
    }
    return inner;
  }

  private closure(n: TsNode, env: Env, known: readonly (Ty | undefined)[]): void {
    const body = n.childForFieldName('body');
    if (body) this.walk(body, this.closureEnv(n, env, known));
  }

  /** The type a closure passed to a method returns (`iter.map(|a| a.name())`). */
  private closureResult(args: TsNode | null, env: Env, known: readonly (Ty | undefined)[]): Ty | undefined {
    const c = args?.namedChildren.find((a) => a?.type === 'closure_expression');
    const body = c?.childForFieldName('body');
    if (c && body) return this.infer(body, this.closureEnv(c, env, known));
    // A function or tuple constructor passed by path (`.map(Bytes)`, `.map(Section::parse)`).
    const f = argumentsOf(args)[0];
    if (f?.type !== 'identifier' && f?.type !== 'scoped_identifier') return undefined;
    if (f.type === 'identifier' && env.get(f.text).found) return undefined;
    const path = pathSegments(f);
    if (!path) return undefined;
    for (const r of this.names.resolvePath(this.scope, path.segs, path.global, 'value')) {
      if (r.t !== 'item') continue;
      const it = itemOf(r.ref);
      if (it.kind === 'struct') return { t: 'adt', ref: r.ref, args: [] };
      if (it.kind === 'variant') return { t: 'adt', ref: { ...r.ref, i: it.parent }, args: [] };
      if (it.kind === 'fn') return this.types.returnType(r.ref);
    }
    return undefined;
  }

  /** The condition of an `if`/`while`: `let` patterns bind in `inner`. */
  private condition(cond: TsNode, env: Env, inner: Env): void {
    if (cond.type === 'let_condition') {
      const value = cond.childForFieldName('value');
      if (value) this.walk(value, env);
      const pat = cond.childForFieldName('pattern');
      if (pat) this.bindPattern(pat, value ? this.infer(value, env) : undefined, inner);
    } else if (cond.type === 'let_chain') {
      for (const c of cond.namedChildren) if (c) this.condition(c, inner, inner);
    } else this.walk(cond, env);
  }

  /**
   * A receiver as iterator methods see it (`ITERATING_TRAITS`), or what a `for` iterates
   * (`INTO_ITERATING_TRAITS`): an iterator (or an `IntoIterator`) of the program is an `Iter` of its `Item`.
   */
  private iterView(t: Ty | undefined, traits: ReadonlySet<string> = INTO_ITERATING_TRAITS): Ty | undefined {
    const d = deref(t);
    if (d?.t !== 'adt') return t;
    const item = this.types.projection(d, 'Item', 0, traits);
    return item ? { t: 'std', name: 'Iter', args: [item] } : t;
  }

  /** The element type of what a `for` iterates. */
  private iterated(value: TsNode, env: Env): Ty | undefined {
    const t = this.iterView(this.infer(value, env));
    if (!t) return undefined;
    const d = deref(t);
    if (d?.t === 'std' && d.name === 'Iter') return d.args[0];
    if (d?.t === 'std' && (d.name === 'Option' || d.name === 'Result')) return d.args[0];
    if (d?.t === 'std' && MAPS.has(d.name)) return mapEntry(d);
    return elementOf(t);
  }

  private bindPattern(p: TsNode, ty: Ty | undefined, env: Env): void {
    switch (p.type) {
      case 'identifier':
        env.bind(p.text, ty);
        return;
      case 'mut_pattern':
      case 'ref_pattern':
      case 'reference_pattern':
      case 'match_pattern':
      case 'or_pattern':
      case 'parenthesized_pattern':
        for (const c of p.namedChildren) if (c && c.type !== 'mutable_specifier') this.bindPattern(c, ty, env);
        return;
      case 'captured_pattern': {
        const [first, ...rest] = p.namedChildren;
        if (first?.type === 'identifier') env.bind(first.text, ty);
        for (const c of rest) if (c) this.bindPattern(c, ty, env);
        return;
      }
      case 'tuple_pattern': {
        const d = deref(ty);
        const elems = d?.t === 'tuple' ? d.elems : undefined;
        for (const { node, k } of patternSlots(p, null, elems?.length))
          this.bindPattern(node, k === undefined ? undefined : elems?.[k], env);
        return;
      }
      case 'slice_pattern':
        for (const c of p.namedChildren) if (c) this.bindPattern(c, elementOf(ty), env);
        return;
      case 'tuple_struct_pattern': {
        const path = p.childForFieldName('type');
        const fields = this.variantFields(path, ty);
        for (const { node, k } of patternSlots(p, path, fields.arity))
          this.bindPattern(node, k === undefined ? undefined : fields.at(k), env);
        return;
      }
      case 'struct_pattern': {
        const path = p.childForFieldName('type');
        const owner = this.patternOwner(path, ty);
        for (const f of p.namedChildren) {
          if (f?.type !== 'field_pattern') continue;
          const name = f.childForFieldName('name');
          const sub = f.childForFieldName('pattern');
          const ft = owner && name ? this.types.fieldType(owner, name.text) : undefined;
          if (sub) this.bindPattern(sub, ft, env);
          else if (name) env.bind(name.text, ft);
        }
        return;
      }
      default:
        return;
    }
  }

  /** The types of the fields a tuple-struct pattern binds (`Some(x)` of an `Option<T>`: T). */
  private variantFields(path: TsNode | null, ty: Ty | undefined): { arity: number | undefined; at: (k: number) => Ty | undefined } {
    const none = { arity: undefined, at: () => undefined };
    if (!path) return none;
    const last = path.type === 'scoped_identifier' ? path.childForFieldName('name')?.text : path.text;
    const d = deref(ty);
    const std = last !== undefined && d?.t === 'std' ? STD_VARIANTS[last] : undefined;
    if (std && d?.t === 'std' && d.name === std[0]) return { arity: 1, at: (k) => (k === 0 ? d.args[std[1]] : undefined) };
    const owner = this.patternOwner(path, ty);
    if (!owner) return none;
    return { arity: itemOf(owner.ref).fields?.length, at: (k) => this.types.fieldType(owner, String(k)) };
  }

  /** The struct or variant a pattern's path names, with the type arguments of the matched value. */
  private patternOwner(path: TsNode | null, ty: Ty | undefined): (Ty & { t: 'adt' }) | undefined {
    if (!path) return undefined;
    const segs = pathSegments(path);
    if (!segs) return undefined;
    const d = deref(ty);
    const args = d?.t === 'adt' ? d.args : [];
    if (segs.segs[0] === 'Self' && this.ctx.self?.t === 'adt') {
      if (segs.segs.length === 1) return this.ctx.self;
      const v = this.names.associated(this.ctx.self.ref, segs.segs[1]!).find((r) => r.t === 'item');
      return v?.t === 'item' ? { t: 'adt', ref: v.ref, args: this.ctx.self.args } : undefined;
    }
    const r = this.names
      .resolvePath(this.scope, segs.segs, segs.global, 'value')
      .concat(this.names.resolvePath(this.scope, segs.segs, segs.global, 'type'));
    const item = r.find((x): x is Res & { t: 'item' } => x.t === 'item' && ['variant', 'struct', 'union'].includes(itemOf(x.ref).kind));
    if (!item) return undefined;
    // A variant's fields are read with its enum's parameters bound.
    const it = itemOf(item.ref);
    if (it.kind === 'variant') {
      const enumItem = item.ref.file.items[it.parent]!;
      return { t: 'adt', ref: { ...item.ref }, args: enumItem.generics ? args : [] };
    }
    return { t: 'adt', ref: item.ref, args };
  }

  // ——— types of expressions ———

  /**
   * What an operator (std's trait `trait`: `Add` for `+`, `Neg` for unary `-`) gives on `left`:
   * a number's own type (a shift's too), a `String` for `+`, `bool` for `!` on one, and on a type
   * of the program what its impl of the trait says (see {@link Types.operatorOutput}).
   */
  private operatorResult(trait: string | undefined, left: Ty | undefined, right: Ty | undefined): Ty | undefined {
    const d = deref(left);
    if (!trait || !d) return undefined;
    if (d.t === 'adt') return this.types.operatorOutput(d, trait, right);
    if (d.t !== 'std') return undefined;
    if (NUMBER_TYPES.has(d.name)) return trait === 'Not' && d.name.startsWith('f') ? undefined : d;
    if (d.name === 'bool' && (trait === 'Not' || trait === 'BitAnd' || trait === 'BitOr' || trait === 'BitXor')) return d;
    return d.name === 'String' && trait === 'Add' ? d : undefined;
  }

  private infer(n: TsNode, env: Env): Ty | undefined {
    if (this.depth > MAX_INFER_DEPTH) return undefined;
    this.depth++;
    try {
      return this.inferInner(n, env);
    } finally {
      this.depth--;
    }
  }

  private inferInner(n: TsNode, env: Env): Ty | undefined {
    switch (n.type) {
      case 'identifier': {
        const local = env.get(n.text);
        if (local.found) return local.ty;
        return this.valuePathType([n.text], false);
      }
      case 'self':
        return env.get('self').ty;
      case 'scoped_identifier': {
        const segs = pathSegments(n);
        return segs ? this.valuePathType(segs.segs, segs.global) : undefined;
      }
      case 'field_expression': {
        const value = memberBase(n);
        const field = n.childForFieldName('field');
        if (!value || !field) return undefined;
        const base = deref(this.infer(value, env));
        let t: Ty | undefined;
        if (base?.t === 'tuple') t = base.elems[Number(field.text)];
        else if (base?.t === 'adt') t = this.fieldThroughDeref(base, field.text);
        else if (base?.t === 'std' && field.text === '0' && STD_NEWTYPES.has(base.name)) t = base.args[0];
        else if (base?.t === 'std' && STD_RANGE_FIELDS[base.name]?.includes(field.text)) t = base.args[0];
        else if (base?.t === 'std' && base.name === PIN_PROJECTION && base.args[0]?.t === 'adt')
          t = this.types.projectedFieldType(base.args[0], field.text);
        return rangeOf(n, t);
      }
      case 'call_expression':
        return rangeOf(n, this.call(n, env).ret);
      case 'try_expression': {
        const inner = n.namedChildren[0];
        return tried(inner ? this.infer(inner, env) : undefined);
      }
      case 'reference_expression': {
        const v = n.childForFieldName('value');
        return v ? this.infer(v, env) : undefined;
      }
      case 'unary_expression':
      case 'parenthesized_expression': {
        const v = n.namedChildren[0];
        const t = v ? this.infer(v, env) : undefined;
        if (n.type === 'parenthesized_expression') return t;
        if (n.text.startsWith('*')) return derefOnce(t);
        return this.operatorResult(n.text.startsWith('-') ? 'Neg' : n.text.startsWith('!') ? 'Not' : undefined, t, t);
      }
      case 'binary_expression': {
        const op = n.childForFieldName('operator')?.type ?? '';
        if (COMPARISONS.has(op)) return BOOL;
        const left = n.childForFieldName('left');
        const right = n.childForFieldName('right');
        if (!left || !right || !BINARY_OPERATORS[op]) return undefined;
        const l = this.infer(left, env);
        return this.operatorResult(BINARY_OPERATORS[op], l, deref(l)?.t === 'adt' ? this.infer(right, env) : undefined);
      }
      case 'struct_expression': {
        const name = n.childForFieldName('name');
        if (!name) return undefined;
        const base = name.type === 'generic_type_with_turbofish' ? name.childForFieldName('type') : name;
        const segs = base ? pathSegments(base) : undefined;
        if (!segs) return undefined;
        if (segs.segs[0] === 'Self' && segs.segs.length === 1) return this.ctx.self;
        const r = this.names
          .resolvePath(this.scope, segs.segs, segs.global, 'type')
          .concat(this.names.resolvePath(this.scope, segs.segs, segs.global, 'value'));
        for (const x of r) {
          if (x.t !== 'item') continue;
          const it = itemOf(x.ref);
          if (it.kind === 'struct' || it.kind === 'union') return { t: 'adt', ref: x.ref, args: [] };
          if (it.kind === 'variant') return { t: 'adt', ref: { ...x.ref, i: it.parent }, args: [] };
        }
        return undefined;
      }
      case 'index_expression': {
        const [obj, idx] = n.namedChildren;
        if (!obj) return undefined;
        const t = this.infer(obj, env);
        return idx?.type === 'range_expression' ? t : (elementOf(t) ?? this.types.indexOutput(t));
      }
      case 'type_cast_expression': {
        const t = n.childForFieldName('type');
        return t ? this.types.of(typeOf(t), this.ctx) : undefined;
      }
      case 'array_expression': {
        const first = n.namedChildren[0];
        const elem = first ? this.infer(first, env) : undefined;
        return elem ? { t: 'array', elem } : undefined;
      }
      case 'tuple_expression':
        return {
          t: 'tuple',
          elems: n.namedChildren.filter((c): c is TsNode => c !== null).map((c) => this.infer(c, env) ?? { t: 'std', name: '?', args: [] }),
        };
      case 'match_expression': {
        const value = n.childForFieldName('value');
        const vt = value ? this.infer(value, env) : undefined;
        for (const arm of n.childForFieldName('body')?.namedChildren ?? []) {
          if (arm?.type !== 'match_arm' || this.cfgOff(arm)) continue;
          const inner = new Env(env);
          const pat = arm.childForFieldName('pattern');
          const guard = pat?.childForFieldName('condition');
          for (const c of pat?.namedChildren ?? []) if (c && c.id !== guard?.id) this.bindPattern(c, vt, inner);
          const v = arm.childForFieldName('value');
          const t = v ? this.infer(v, inner) : undefined;
          if (t) return t;
        }
        return undefined;
      }
      case 'if_expression': {
        const body = n.childForFieldName('consequence');
        if (!body) return undefined;
        const inner = new Env(env);
        const cond = n.childForFieldName('condition');
        if (cond?.type === 'let_condition') {
          const value = cond.childForFieldName('value');
          const pat = cond.childForFieldName('pattern');
          if (pat) this.bindPattern(pat, value ? this.infer(value, env) : undefined, inner);
        }
        return this.infer(body, inner);
      }
      case 'macro_invocation': {
        const name = n.childForFieldName('macro')?.text;
        const local = name ? this.localMacroType(n, name, env) : undefined;
        if (local) return local;
        if (name === 'format') return { t: 'std', name: 'String', args: [] };
        // std's `try!(e)` (edition 2015): `e?`.
        if (name === 'try' || name === 'r#try') {
          const inner = argumentsOf(this.argsOfMacro(n))[0];
          return tried(inner ? this.infer(inner, env) : undefined);
        }
        if (name === 'vec') {
          const args = this.argsOfMacro(n);
          const first = args?.namedChildren[0];
          const elem = first ? this.infer(first, env) : undefined;
          return { t: 'std', name: 'Vec', args: elem ? [elem] : [] };
        }
        return undefined;
      }
      case 'unsafe_block': {
        const block = n.namedChildren.find((c) => c?.type === 'block');
        return block ? this.infer(block, env) : undefined;
      }
      case 'block': {
        const last = n.namedChildren[n.namedChildren.length - 1];
        if (!last || last.type === 'let_declaration') return undefined;
        env = this.blockEnvs.get(this.nodeKey(n)) ?? env;
        // A block-like tail (`{ { …; x } }`, as a `macro_rules!` with `{{ … }}` writes) has no `;`.
        if (last.type === 'expression_statement') return last.lastChild?.type === ';' ? undefined : this.inferFirst(last, env);
        return this.infer(last, env);
      }
      default:
        return undefined;
    }
  }

  /** The type of a node's first named child. */
  private inferFirst(n: TsNode, env: Env): Ty | undefined {
    const first = n.namedChildren[0];
    return first ? this.infer(first, env) : undefined;
  }

  /**
   * The type of an invocation of one of the program's `macro_rules!` (`tri!(self.parse())`):
   * the type of its expansion, read in the caller's bindings. Calls in the expansion are not
   * call sites of their own (those of the arguments were read from the arguments).
   */
  private localMacroType(n: TsNode, name: string, env: Env): Ty | undefined {
    const body = this.expansionOf(n, name);
    if (!body || this.expanding >= MAX_MACRO_DEPTH) return undefined;
    this.expanding++;
    try {
      return this.infer(body, env);
    } finally {
      this.expanding--;
    }
  }

  private readonly expansions = new Map<string, TsNode | null>();

  /** The expansion of an invocation of one of the program's `macro_rules!`, parsed as a block (once per invocation). */
  private expansionOf(n: TsNode, name: string): TsNode | undefined {
    const key = this.macroKey(n);
    const known = this.expansions.get(key);
    if (known !== undefined) return known ?? undefined;
    this.expansions.set(key, null);
    const res = this.names.resolvePath(this.scope, name.split('::'), false, 'macro').find((r) => r.t === 'item');
    const rules = res?.t === 'item' ? itemOf(res.ref).rules : undefined;
    const tt = n.namedChildren.find((c) => c?.type === 'token_tree');
    if (!rules || !tt) return undefined;
    // The body's own invocations are each read (as many as it has); those that expansions invoke use up a budget.
    if (this.inExpansion > 0 || this.expanding > 0) {
      if (this.expansionBudget <= 0) {
        this.cut = true;
        return undefined;
      }
      this.expansionBudget--;
    }
    // `$crate` in a macro of another crate of the repository names that crate.
    const home = res?.t === 'item' ? res.ref.mod.crate : undefined;
    const text = expand(compileRules(rules), tt.text.slice(1, -1), home && home.key !== this.scope.mod.crate.key ? home.name : undefined);
    if (text === undefined) return undefined;
    const tree = this.parseSnippet(`fn __m() {\n${text}\n}`);
    if (!tree) return undefined;
    this.keep(tree);
    const body = tree.rootNode.namedChildren[0]?.childForFieldName('body') ?? undefined;
    if (body) this.expansions.set(key, body);
    return body;
  }

  /**
   * A field of a struct of the program, or of what its `Deref` impl gives when it has none of the
   * name (`stream.state` on a `store::Ptr` that derefs to a `Stream`).
   */
  private fieldThroughDeref(base: Ty & { t: 'adt' }, field: string): Ty | undefined {
    let owner: Ty | undefined = base;
    for (let i = 0; i <= MAX_USER_DEREFS && owner?.t === 'adt'; i++) {
      const f = itemOf(owner.ref).fields?.find((x) => x.name === field);
      const seen =
        f?.visibility === 'pub' ||
        (f?.visibility === 'restricted' && this.scope.mod.crate === owner.ref.mod.crate) ||
        within(this.scope.mod, owner.ref.mod);
      if (f && seen) return this.types.fieldType(owner, field);
      // A private field is seen from its module and those inside it only: elsewhere auto-deref goes on (`guard.inner`).
      const next = deref(this.types.derefTarget(owner));
      if (f && next?.t !== 'adt') return this.types.fieldType(owner, field);
      owner = next;
    }
    return undefined;
  }

  /** The type of a path used as a value: a const or static, a unit struct, an enum's unit variant. */
  private valuePathType(segs: string[], global: boolean): Ty | undefined {
    for (const r of this.names.resolvePath(this.scope, segs, global, 'value')) {
      if (r.t !== 'item') continue;
      const it = itemOf(r.ref);
      if (it.kind === 'static' && it.attrs?.includes('thread_local')) {
        // `thread_local! { static STATE: State = … }`: `STATE.with(|state| …)` is a `LocalKey<State>`'s.
        const value = this.types.valueType(r.ref);
        return { t: 'std', name: 'LocalKey', args: value ? [value] : [] };
      }
      if (it.kind === 'const' || it.kind === 'static') return this.types.valueType(r.ref);
      if (it.kind === 'struct') return { t: 'adt', ref: r.ref, args: [] };
      if (it.kind === 'variant') return { t: 'adt', ref: { ...r.ref, i: it.parent }, args: [] };
    }
    return undefined;
  }

  // ——— calls ———

  /** Resolves a call (once per node) and records its site. */
  private call(n: TsNode, env: Env): Callee {
    const key = this.nodeKey(n);
    const known = this.callMemo.get(key);
    if (known) return known;
    const c = this.withArgumentGenerics(this.callee(n, env), n, env);
    // Kept (and a site) only when the walk reaches the call, not while a macro expression's type
    // is read (`expanding`): the `let`s of its expansion are not bound then.
    if (this.expanding === 0) {
      this.callMemo.set(key, c);
      this.sites.push({
        caller: this.caller,
        targets: c.targets,
        outcome: c.outcome,
        ...(this.expanded.has(this.caller) || this.inExpansion > 0 ? { expanded: true } : {}),
        ...(this.inExpansion > 0 ? { inExpansion: true } : {}),
      });
    }
    return c;
  }

  /**
   * The callee's own type parameters its arguments give: a parameter written `T`, `&T` or
   * `&mut T` takes the argument's type (`guard(value: T, f: F) -> ScopeGuard<T, F>` called with a
   * table). The return type is read again with them; closures passed along see them
   * ({@link fnBoundParams}). Type arguments written at the call (a turbofish) come first.
   */
  private withArgumentGenerics(c: Callee, call: TsNode, env: Env): Callee {
    const target = c.targets[0];
    if (!target || c.outcome !== 'resolved') return c;
    const it = itemOf(target);
    if (it.kind !== 'fn' || !it.generics || !it.params) return c;
    const fn = call.childForFieldName('function');
    if (fn?.type === 'generic_function') return c;
    const args = argumentsOf(call.childForFieldName('arguments'));
    if (args.length === 0) return c;
    // `Type::method(x, …)` passes the receiver as the first argument.
    const shift = fn?.type !== 'field_expression' && it.selfParam ? 1 : 0;
    const generics: (Ty | undefined)[] = [];
    let any = false;
    it.params.forEach((p, k) => {
      let te = p.type;
      while (te?.k === 'ref') te = te.inner;
      const g =
        te?.k === 'path' && te.segs.length === 1 && te.args.length === 0 ? it.generics!.findIndex((x) => x.name === te.segs[0]) : -1;
      const arg = args[k + shift];
      if (g < 0 || !arg || arg.type === 'closure_expression' || generics[g]) return;
      const t = this.infer(arg, env);
      if (t) {
        generics[g] = t;
        any = true;
      }
    });
    if (!any) return c;
    // The return type only changes where it names one of them.
    const named = new Set(it.generics.filter((_, i) => generics[i]).map((g) => g.name));
    const ret =
      it.ret && typePaths(it.ret, NO_NAMES).some((p) => p.segs.length === 1 && named.has(p.segs[0]!))
        ? this.types.returnType(target, deref(c.recv), generics)
        : undefined;
    return { ...c, generics, ...(ret ? { ret } : {}) };
  }

  private callee(n: TsNode, env: Env): Callee {
    let fn = n.childForFieldName('function');
    const turbofish = fn?.type === 'generic_function' ? fn.childForFieldName('type_arguments') : null;
    if (fn?.type === 'generic_function') fn = fn.childForFieldName('function');
    if (!fn) return { targets: [], outcome: 'unknown' };
    if (fn.type === 'field_expression') {
      const value = memberBase(fn);
      const name = fn.childForFieldName('field')?.text;
      if (!value || !name) return { targets: [], outcome: 'unknown' };
      const recv = this.infer(value, env);
      if (value.type === 'self' && this.delegatesToOwnMethod(name, recv))
        return { targets: [], outcome: 'external', ...(recv ? { recv } : {}), method: name };
      // `data.read_at::<Header>(0)`: the method's own type parameters, as written.
      const explicit = turbofish?.namedChildren.flatMap((a) => (a && !NOT_TYPES.has(a.type) ? [this.types.of(typeOf(a), this.ctx)] : []));
      return {
        ...this.methodCall(recv, name, n.childForFieldName('arguments'), env, 0, explicit),
        ...(recv ? { recv } : {}),
        method: name,
      };
    }
    if (fn.type === 'identifier') {
      const local = env.get(fn.text);
      if (local.found) return callOf(local.ty);
      return this.pathCall(this.names.resolvePath(this.scope, [fn.text], false, 'value'), undefined, n, env);
    }
    if (fn.type === 'scoped_identifier') return this.scopedCall(fn, n, env);
    // `(self.0)()`, `(vtable(p).object_drop)(e)`: what the callable returns.
    if (fn.type === 'parenthesized_expression') return callOf(this.infer(fn, env));
    return { targets: [], outcome: 'unknown' };
  }

  /** `a::b::f()`, `Type::new()`, `Self::f()`, `T::default()`, `<T as Trait>::f()`, `Vec::<T>::new()`. */
  private scopedCall(fn: TsNode, call: TsNode, env: Env): Callee {
    const path = fn.childForFieldName('path');
    const name = fn.childForFieldName('name')?.text;
    if (!name) return { targets: [], outcome: 'unknown' };
    // A type written as the prefix: `<T as Trait>::`, `<Vec<u8>>::`, `S::<T>::`.
    if (path && (path.type === 'bracketed_type' || path.type === 'generic_type')) {
      const inner = path.type === 'bracketed_type' ? path.namedChildren[0]! : path;
      const te: TypeExpr =
        inner.type === 'qualified_type'
          ? {
              k: 'qualified',
              self: typeOf(inner.childForFieldName('type') ?? inner),
              trait: typeOf(inner.childForFieldName('alias') ?? inner),
              name,
            }
          : typeOf(inner);
      if (te.k === 'qualified') {
        const traits = this.types.traitRefs(te.trait, this.ctx);
        if (traits.length === 0) return { targets: [], outcome: 'external' };
        const targets = this.names.boundMethods(traits, name);
        const recv = this.types.of(te.self, this.ctx);
        return this.withReturn(targets, recv);
      }
      return this.associatedCall(this.types.of(te, this.ctx), name);
    }
    // `<R as Reader>::Offset::f()`: a function of an associated type's type.
    const inner = path?.type === 'scoped_identifier' ? path.childForFieldName('path') : undefined;
    const assoc = path?.childForFieldName('name')?.text;
    if (inner?.type === 'bracketed_type' && inner.namedChildren[0]?.type === 'qualified_type' && assoc) {
      const q = inner.namedChildren[0];
      const te: TypeExpr = {
        k: 'qualified',
        self: typeOf(q.childForFieldName('type') ?? q),
        trait: typeOf(q.childForFieldName('alias') ?? q),
        name: assoc,
      };
      return this.associatedCall(this.types.of(te, this.ctx), name);
    }
    const segs = pathSegments(fn);
    if (!segs) return { targets: [], outcome: 'unknown' };
    const first = segs.segs[0]!;
    if ((segs.segs.length === 2 || segs.segs.length === 3) && (first === 'Self' || (this.ctx.generics.has(first) && !segs.global))) {
      // `T::f()`, `Self::f()`; `R::Offset::f()` through the associated type's bounds or impl.
      const base = first === 'Self' ? this.ctx.self : this.ctx.generics.get(first);
      const recv = segs.segs.length === 3 ? this.types.projection(base, segs.segs[1]!, 0) : base;
      return this.associatedCall(recv, name);
    }
    // `Pin::get_mut(p)`: std's `Pin` method with its receiver written first.
    if (segs.segs.length === 2 && first === 'Pin' && PIN_METHODS[name] && this.names.isOutsideBound(this.scope, PIN_TYPE)) {
      const receiver = argumentsOf(call.childForFieldName('arguments'))[0];
      const recv = receiver ? this.infer(receiver, env) : undefined;
      if (recv?.t === 'std' && recv.name === 'Pin') return this.methodCall(recv, name, null, env);
    }
    const res = this.names.resolvePath(this.scope, segs.segs, segs.global, 'value');
    // The receiver type for `Type::f()`: Self of the function's signature.
    let recv: Ty | undefined;
    if (segs.segs.length >= 2) {
      const prefix = this.names.resolvePath(this.scope, segs.segs.slice(0, -1), segs.global, 'type');
      const p = prefix[0];
      if (p?.t === 'item') {
        const target = this.names.unalias(p.ref);
        if (target && itemOf(target).kind !== 'trait') recv = { t: 'adt', ref: target, args: [] };
      }
    }
    // `String::arbitrary(g)`, `bool::arbitrary(g)`: a type from outside the program, whose function of the name may be a trait's of the program.
    if (!recv && path && segs.segs.length >= 2 && !res.some((r) => r.t === 'item')) {
      const outside = this.types.of(typeOf(path), this.ctx);
      if (outside?.t === 'std') {
        const c = this.associatedCall(outside, name);
        if (c.targets.length > 0) return c;
      }
    }
    const c = this.pathCall(res, recv, call, env);
    // `Type::default()`, `Type::from(x)`: std's constructing traits make the type.
    const made = SELF_CONSTRUCTORS[segs.segs[segs.segs.length - 1]!];
    if (!c.ret && c.targets.length === 0 && recv && made)
      return { ...c, ret: made === 'self' ? recv : { t: 'std', name: 'Result', args: [recv] } };
    return c;
  }

  /** `Type::f()` where the type is known as a {@link Ty}. */
  private associatedCall(recv: Ty | undefined, name: string): Callee {
    const d = deref(recv);
    if (!d) return { targets: [], outcome: 'unknown' };
    if (d.t === 'adt') {
      const found = this.names.methodsOf(d.ref, name);
      if (found.targets.length > 0) return this.withReturn(this.byInstantiation(found.targets, d), d);
      // A function of the type's impl of an outside trait (`Self::one()` of `impl<T: Num> One for Complex<T>`).
      const declared = this.outsideTraitReturn(d, name);
      if (declared) return { targets: [], outcome: 'external', ret: declared };
      // std's constructing traits, derived or implemented (`Default`, `From`, `FromStr` …).
      const made = SELF_CONSTRUCTORS[name];
      if (made) return { targets: [], outcome: 'external', ret: made === 'self' ? d : { t: 'std', name: 'Result', args: [d] } };
      if (itemOf(d.ref).kind === 'enum') {
        const v = this.names.associated(d.ref, name).find((r) => r.t === 'item');
        if (v?.t === 'item') return { targets: [], outcome: 'external', ret: d };
      }
      return { targets: [], outcome: found.external ? 'external' : 'unknown' };
    }
    if (d.t === 'bounds') {
      let targets = this.names.boundMethods(d.traits, name);
      // `C::unpack_tid(i)` for `C: Config` with `impl<C: Config> CfgPrivate for C`: a blanket impl's function.
      if (targets.length === 0) targets = this.names.blanketMethods(d.traits, d.outside ?? [], name, true);
      // `<dyn Subscriber>::is::<T>(s)`: a trait object's own.
      if (targets.length === 0) targets = this.names.dynInherentMethods(d.traits, name);
      return targets.length > 0 ? this.withReturn(targets, d) : { targets: [], outcome: 'unknown' };
    }
    // `String::arbitrary(g)`, `Vec::<T>::arbitrary(g)`: a trait of the program implemented for a type from outside it.
    const local = this.outsideTypeMethods(d, name, false);
    if (local.length > 0) return this.withReturn(local, d);
    return { targets: [], outcome: 'external', ...(name === 'new' || name === 'default' || name === 'with_capacity' ? { ret: d } : {}) };
  }

  /**
   * The items of the program's traits named `name` that a type from outside the program (std's,
   * a slice or array) has through the program's impls, unless the type's own method of the name
   * comes first or a prelude trait's has it (`u32::from` is std's `From`). As a path (without
   * `derefs`), only a type whose own functions are known; with `derefs` (a method call), also
   * what it derefs to (`Vec` to a slice, `String` to `str`).
   */
  private outsideTypeMethods(d: Ty, name: string, derefs: boolean): ItemRef[] {
    const outside = d.t === 'array' ? SLICE : d.t === 'std' ? d.name : undefined;
    if (outside === undefined) return [];
    if (PRELUDE_TRAIT_METHODS.has(name)) return [];
    // `OsStr::to_string_lossy(self)` in rustix's `impl Arg for &OsStr` is `OsStr`'s own: a path to a
    // type whose own functions are not known (not in STD_INHERENT_METHODS) names no trait of the program.
    if (!derefs && !STD_INHERENT_METHODS[outside]) return [];
    for (const typeName of derefs ? [outside, ...(OUTSIDE_DEREF[outside] ?? [])] : [outside]) {
      if (STD_INHERENT_METHODS[typeName]?.has(name)) break;
      const local = this.names.stdTypeMethods(
        typeName,
        name,
        typeName === outside && d.t === 'std' ? d.path : undefined,
        typeName === SLICE ? elementName(elementOf(d)) : undefined,
      );
      if (local.length > 0) return this.traitsInScope(local);
    }
    return [];
  }

  /**
   * Of trait items of several traits, those whose trait the call's scope names (`use float::Float;`
   * in a function where `FloatCore` has a method of the name too; sequoia's `self.serialized_len()`
   * on a type with `MarshalInto` and `SerializeInto`, where only `MarshalInto` is imported): rustc
   * considers only traits in scope. All of them when the scope names none (a trait imported `as _`,
   * or through a macro). Items of impls (inherent methods) are kept as they are.
   */
  private traitsInScope(items: ItemRef[]): ItemRef[] {
    const traitOf = (r: ItemRef): ItemRef => ({ file: r.file, i: itemOf(r).parent, mod: r.mod });
    const traits = new Map<string, ItemRef>();
    for (const r of items) {
      const trait = traitOf(r);
      if (trait.i !== -1 && itemOf(trait).kind === 'trait') traits.set(refKey(trait), trait);
    }
    if (traits.size < 2) return items;
    const named = new Set<string>();
    for (const [key, trait] of traits)
      if (this.names.lookup(this.scope, itemOf(trait).name, 'type').some((r) => r.t === 'item' && refKey(r.ref) === key)) named.add(key);
    if (named.size === 0) return items;
    return items.filter((r) => named.has(refKey(traitOf(r))));
  }

  /** A call whose callee path resolved to `res`. */
  private pathCall(res: Res[], recv: Ty | undefined, call: TsNode, env: Env): Callee {
    const fns: ItemRef[] = [];
    let ret: Ty | undefined;
    for (const r of res) {
      if (r.t !== 'item') continue;
      const it = itemOf(r.ref);
      if (it.kind === 'fn') fns.push(r.ref);
      else if (it.kind === 'struct') ret = { t: 'adt', ref: r.ref, args: [] };
      else if (it.kind === 'variant') ret = { t: 'adt', ref: { ...r.ref, i: it.parent }, args: [] };
    }
    if (fns.length > 0) return this.withReturn(fns, recv);
    if (ret) return { targets: [], outcome: 'external', ret };
    if (res.length > 0 && res.every((r) => r.t === 'ext')) {
      // `Some(x)`, `Ok(x)`, `Box::new(x)`: what they wrap is known.
      const fn = call.childForFieldName('function');
      const written = fn?.text ?? '';
      const arg = call.childForFieldName('arguments')?.namedChildren[0];
      const wrap = /^(Some|Ok|Err|Box::new|Rc::new|Arc::new|RefCell::new|Cell::new|Mutex::new|RwLock::new)$/.exec(written)?.[1];
      if (wrap && arg) {
        const inner = this.infer(arg, env);
        const name = wrap === 'Some' ? 'Option' : wrap === 'Ok' || wrap === 'Err' ? 'Result' : wrap.replace('::new', '');
        return {
          targets: [],
          outcome: 'external',
          ...(inner ? { ret: { t: 'std', name, args: wrap === 'Err' ? [{ t: 'std', name: '?', args: [] }, inner] : [inner] } } : {}),
        };
      }
      // A type of the program (`recv`) is made by its own constructors or std's traits (after this).
      const made = !recv && fn ? (outsideConstruction(fn) ?? this.stdFunctionCall(fn, call, env)) : undefined;
      return { targets: [], outcome: 'external', ...(made ? { ret: made } : {}) };
    }
    return { targets: [], outcome: res.length > 0 ? 'external' : 'unknown' };
  }

  /**
   * What a call of std's file, I/O or environment functions gives (`fs::remove_file(p)`,
   * `File::open(p)`), by the path its `use` names; `mem::take(&mut x)` and `mem::replace(&mut x, v)`
   * give the type of `x`.
   */
  private stdFunctionCall(fn: TsNode, call: TsNode, env: Env): Ty | undefined {
    const path = fn.type === 'generic_function' ? fn.childForFieldName('function') : fn;
    const segs = path ? pathSegments(path)?.segs : undefined;
    const last = segs?.[segs.length - 1];
    if (!segs || !last || (!STD_FUNCTION_NAMES.has(last) && !MEM_MOVES.has(last))) return undefined;
    const origin = this.names.outsidePath(this.scope, { k: 'path', segs, args: [] });
    if (origin.length === 3 && isStdOrigin(origin) && origin[1] === 'mem' && MEM_MOVES.has(last)) {
      const dest = argumentsOf(call.childForFieldName('arguments'))[0];
      return dest ? this.infer(dest, env) : undefined;
    }
    return stdFunctionResult(origin);
  }

  /** `recv.name()` on a receiver of type `recv`. */
  private methodCall(
    recv: Ty | undefined,
    name: string,
    args: TsNode | null,
    env: Env,
    derefs = 0,
    explicit?: readonly (Ty | undefined)[],
  ): Callee {
    // `ptr.as_ref()` on a `Box`, `Rc` or `Arc`: std's impl on the pointer (found before what it points to) gives the pointee.
    if (recv?.t === 'std' && recv.args[0] && POINTER_VIEWS[recv.name]?.has(name))
      return { targets: [], outcome: 'external', ret: recv.args[0] };
    // `Pin`'s own methods come before the pointee's (`pin.get_mut()` is not `T::get_mut`).
    // `get_mut`, `get_ref`, `into_ref` are `Pin<&mut T>`'s and `Pin<&T>`'s only: a `Pin<Box<T>>`
    // reaches `T`'s, but references are not kept here, so a `Pin<&mut Box<T>>` looks the same: no edge.
    const pinMethod = recv?.t === 'std' && recv.name === 'Pin' ? PIN_METHODS[name] : undefined;
    if (recv?.t === 'std' && pinMethod) {
      if (pinMethod !== 'pin' && isStdPointer(recv.args[0])) return { targets: [], outcome: 'unknown' };
      // `Pin<&mut T>` is kept as `Pin<T>`: `get_mut()` gives the `T` (a `Pin<P>` too, in `impl<P> Stream for Pin<P>`).
      const pointee = deref(recv.args[0]);
      const gives =
        pinMethod === 'pin'
          ? { t: 'std' as const, name: 'Pin', args: pointee ? [pointee] : [] }
          : pinMethod === 'pointee'
            ? recv.args[0]
            : undefined;
      return { targets: [], outcome: 'external', ...(gives ? { ret: gives } : {}) };
    }
    const d = deref(recv);
    if (!d) return { targets: [], outcome: 'unknown' };
    if (d.t === 'adt') {
      const found = this.names.methodsOf(d.ref, name, 0, true);
      if (found.targets.length > 0) {
        if (this.outsideTraitsMethodFits(d.ref, name, found.targets, args)) return { targets: [], outcome: 'external' };
        return this.withReturn(this.byInstantiation(this.traitsInScope(found.targets), d), d, explicit);
      }
      // pin-project's `self.project()`: the struct's fields, projected.
      if ((name === 'project' || name === 'project_ref') && isPinProjected(itemOf(d.ref)))
        return { targets: [], outcome: 'external', ret: { t: 'std', name: PIN_PROJECTION, args: [d] } };
      // A method of the type's impl of an outside trait (`impl IntoIterator for WalkDir`).
      const declared = this.outsideTraitReturn(d, name);
      if (declared) return { targets: [], outcome: 'external', ret: declared };
      // An iterator of the program: std's adapters over its `Item`.
      // (`into_iter()` of an `IntoIterator` too: an iterator of its `Item`.)
      const item = this.types.projection(d, 'Item', 0, name === 'into_iter' ? INTO_ITERATING_TRAITS : ITERATING_TRAITS);
      if (item) return { ...this.methodCall({ t: 'std', name: 'Iter', args: [item] }, name, args, env), outcome: 'external' };
      // A smart pointer of the program: its `Deref` target's methods (not those std gives every type or derives).
      if (!DERIVED_OR_BLANKET.has(name) && derefs < MAX_USER_DEREFS && !this.names.hasExternalTraitMember(d.ref, name)) {
        const target = this.types.derefTarget(d);
        if (target) return this.methodCall(target, name, args, env, derefs + 1, explicit);
      }
      // Not the program's: a method of a std trait it derives or implements (`clone`, `fmt`, `into`).
      return { targets: [], outcome: 'external', ...(name === 'clone' || name === 'to_owned' ? { ret: d } : {}) };
    }
    if (d.t === 'bounds') {
      let targets = this.names.boundMethods(d.traits, name);
      // The program's blanket impls the bounds meet (`impl<T: Stream> StreamExt for T` for `St: Stream`).
      if (targets.length === 0) targets = this.names.blanketMethods(d.traits, d.outside ?? [], name);
      // A trait object's own (`impl dyn Subscriber { fn is<T>(&self) }`).
      if (targets.length === 0) targets = this.names.dynInherentMethods(d.traits, name);
      // Not a method of the bounds' traits of the program: std's (`Clone` of `R: Reader + Clone`).
      return targets.length > 0
        ? this.withReturn(targets, d, explicit)
        : { targets: [], outcome: 'external', ...(name === 'clone' || name === 'to_owned' ? { ret: d } : {}) };
    }
    // A trait of the program implemented for a type from outside it; a `Vec` derefs to a slice, a `String` to `str`.
    const local = this.outsideTypeMethods(d, name, true);
    if (local.length > 0) return this.withReturn(local, d, explicit);
    // A blanket impl of the program over an outside trait std implements for the type (`impl<T: AsRawFd> AsSock for T`,
    // `impl<I: Iterator<Item = char>> Normalize<I> for I` for `s.chars()`, an iterator std's methods make).
    if (d.t === 'std' && (isStdOrigin(d.origin) || isModelIterator(d)) && !STD_INHERENT_METHODS[d.name]?.has(name)) {
      const blanket = this.names.stdBlanketMethods(d.name, name);
      if (blanket.length > 0) return this.withReturn(blanket, d, explicit);
    }
    if (d.t === 'std') {
      // Adapters whose result is what their closure returns.
      const params = closureParams(d, name);
      if (params && (name === 'map' || name === 'filter_map' || name === 'flat_map' || name === 'and_then' || name === 'find_map')) {
        let out = this.closureResult(args, env, params);
        if (out && (name === 'filter_map' || name === 'find_map' || name === 'and_then'))
          out = deref(out)?.t === 'std' ? (deref(out) as Ty & { t: 'std' }).args[0] : undefined;
        if (name === 'flat_map')
          out = out
            ? (elementOf(out) ??
              (deref(out)?.t === 'std' && (deref(out) as Ty & { t: 'std' }).name === 'Iter'
                ? (deref(out) as Ty & { t: 'std' }).args[0]
                : undefined))
            : undefined;
        if (!out) return { targets: [], outcome: 'external' };
        const wrap = d.name === 'Option' || d.name === 'Result' ? d.name : 'Iter';
        return {
          targets: [],
          outcome: 'external',
          ret:
            name === 'find_map'
              ? { t: 'std', name: 'Option', args: [out] }
              : { t: 'std', name: wrap, args: [out, ...(wrap === 'Result' ? d.args.slice(1) : [])] },
        };
      }
    }
    // `v.get(a..b)`: a sub-slice, not an element.
    if ((name === 'get' || name === 'get_mut') && argumentsOf(args)[0]?.type === 'range_expression') {
      const elem = elementOf(d);
      return { targets: [], outcome: 'external', ...(elem ? { ret: { t: 'std', name: 'Option', args: [{ t: 'array', elem }] } } : {}) };
    }
    const written = explicit?.[0];
    if (written && TURBOFISH_RESULTS.has(name)) return { targets: [], outcome: 'external', ret: turbofishResult(name, written, d) };
    return { targets: [], outcome: 'external', ...this.retOfStd(d, name) };
  }

  /**
   * What the function `name` of a type's impl of a trait from outside the program declares it
   * returns (`into_iter` of `impl IntoIterator for WalkDir`, `one` of `impl One for Complex<T>`):
   * the trait's item is outside (no edge), the type is known. Undefined when not one such function.
   */
  private outsideTraitReturn(d: Ty & { t: 'adt' }, name: string): Ty | undefined {
    const outside = this.names.externalTraitMembers(d.ref, name).filter((r) => itemOf(r).kind === 'fn');
    return outside.length === 1 ? this.types.returnType(outside[0]!, d) : undefined;
  }

  /**
   * Of methods found in several impls of one generic type for different arguments (bitmaps'
   * `impl Bitmap<U128> { fn load_m128i }` and `impl Bitmap<U256> { fn load_m128i }`), those whose
   * impl's arguments the receiver's do not contradict (`self.load_m128i()` on a `Bitmap<U128>`);
   * all of them when none fits or the receiver's arguments are not known.
   */
  private byInstantiation(targets: ItemRef[], recv: Ty & { t: 'adt' }): ItemRef[] {
    if (targets.length < 2 || recv.args.length === 0) return targets;
    const fitting = targets.filter((t) => {
      const self = this.types.fnCtx(t).self;
      if (self?.t !== 'adt' || self.args.length !== recv.args.length) return true;
      return self.args.every((a, i) => !contradicts(a, recv.args[i]));
    });
    return fitting.length > 0 ? fitting : targets;
  }

  /**
   * Whether `self.name(…)` in the body of `name` of a trait impl for a type from outside the
   * program is that type's own method of the name: `fn move_cursor_up(&self, n) { self.move_cursor_up(n) }`
   * in indicatif's `impl TermLike for console::Term` delegates to `Term`'s inherent method, which
   * method lookup takes first (the program's trait method calling itself would never return).
   * Not for a trait with type arguments, which the type may implement twice: rayon's
   * `ParallelExtend<&T> for LinkedList<T>` calls its `ParallelExtend<T>` impl's `par_extend`.
   */
  private delegatesToOwnMethod(name: string, recv: Ty | undefined): boolean {
    const fn = this.file?.items[this.caller];
    if (!fn || fn.name !== name) return false;
    const trait = fn.parent >= 0 && this.file?.items[fn.parent]?.kind === 'impl' ? this.file.items[fn.parent]!.implTrait : undefined;
    return trait?.k === 'path' && trait.args.length === 0 && deref(recv)?.t === 'std';
  }

  /**
   * Whether a method call on a type of the program is its impl's of a trait from outside the
   * program rather than the program's trait methods found for it: the call's argument count fits
   * the outside trait's member and none of the program's (tracing-subscriber's `self.inner.enabled(meta)`
   * on a `Layered`, which implements both `tracing_core::Subscriber::enabled(&self, meta)` and its own
   * `Layer::enabled(&self, meta, ctx)`). Rust has no overloading: the other arity cannot be the callee.
   */
  private outsideTraitsMethodFits(type: ItemRef, name: string, targets: readonly ItemRef[], args: TsNode | null): boolean {
    if (!args) return false;
    const count = argumentsOf(args).length;
    const fits = (r: ItemRef) => (itemOf(r).params?.length ?? -1) === count;
    if (targets.some(fits)) return false;
    return this.names.externalTraitMembers(type, name).some((r) => itemOf(r).kind === 'fn' && fits(r));
  }

  private retOfStd(d: Ty, name: string): { ret?: Ty } {
    // `file.read(buf)` on std's `File`: an `io::Result<usize>` (not a namesake's, whose `read` may be async).
    const r = stdMethodResult(d, name) ?? (d.t === 'std' && isStdOrigin(d.origin) ? ioMethodResult(d.name, name) : undefined);
    return r ? { ret: r } : {};
  }

  private withReturn(targets: ItemRef[], recv: Ty | undefined, explicit?: readonly (Ty | undefined)[]): Callee {
    // cfg-gated twins return the same type: the first one that says.
    let ret: Ty | undefined;
    for (const t of targets) if ((ret = this.types.returnType(t, recv, explicit))) break;
    return { targets, outcome: 'resolved', ...(ret ? { ret } : {}) };
  }
}

/**
 * The type of a member access or call `n` whose value is `t`: a `Range` of it when `n` ends a
 * chain of members that tree-sitter-rust hung on a range (`0..self.len()`,
 * `0..n.count().saturating_sub(1)`, `self.start..self.end`: see {@link memberBase}); inside the
 * chain, `t` itself.
 */
function rangeOf(n: TsNode, t: Ty | undefined): Ty | undefined {
  const parent = n.parent;
  if (parent?.type === 'field_expression' && parent.childForFieldName('value')?.id === n.id) return t;
  if (parent?.type === 'call_expression' && parent.childForFieldName('function')?.id === n.id) return t;
  let m: TsNode | null = n;
  while (m?.type === 'call_expression' || m?.type === 'field_expression') {
    const inner: TsNode | null = m.type === 'call_expression' ? m.childForFieldName('function') : m;
    if (inner?.type !== 'field_expression') return t;
    m = inner.childForFieldName('value');
  }
  return m?.type === 'range_expression' ? { t: 'std', name: 'Range', args: t ? [t] : [] } : t;
}

/**
 * What a field access or method call is made on. tree-sitter-rust reads `0..self.len()` as
 * `(0..self).len()` and `..at.pos()` as `(..at).pos()`; a range has no fields or methods a
 * program calls this way, so the member is its end's.
 */
function memberBase(n: TsNode): TsNode | null {
  const value = n.childForFieldName('value');
  if (value?.type !== 'range_expression') return value;
  const operands = value.namedChildren.filter((c): c is TsNode => c !== null && !NOT_ARGUMENTS.has(c.type));
  const end =
    operands.length === 2 ? operands[1] : operands.length === 1 && value.text.trimStart().startsWith('..') ? operands[0] : undefined;
  return end ?? value;
}

/** A macro invocation in statement position (`inner_barrier!(ctx);`). */
function isStatement(n: TsNode): boolean {
  const p = n.parent;
  return p?.type === 'block' || (p?.type === 'expression_statement' && p.parent?.type === 'block');
}

/** Named children of type arguments that are not types (`'a`, comments). */
const NOT_TYPES = new Set(['lifetime', 'line_comment', 'block_comment']);
/** Named children of an argument list that are not arguments. */
const NOT_ARGUMENTS = new Set(['line_comment', 'block_comment', 'attribute_item']);

/** The arguments of an argument list, without its comments and attributes. */
function argumentsOf(list: TsNode | null | undefined): TsNode[] {
  return list?.namedChildren.filter((a): a is TsNode => a !== null && !NOT_ARGUMENTS.has(a.type)) ?? [];
}

/**
 * The names a macro invocation passes as whole arguments (`inner_barrier!(ctx)`, `pin!(a, b)`):
 * top-level comma- or semicolon-separated arguments that are one identifier; a name inside an
 * expression or a string (`m!(v.len())`, `s!("v")`) is not passed.
 */
function passedIdentifiers(tt: TsNode): Set<string> {
  const out = new Set<string>();
  const kids = tt.children;
  let group: TsNode[] = [];
  const close = () => {
    if (group.length === 1 && group[0]!.type === 'identifier') out.add(group[0]!.text);
    group = [];
  };
  // The first and last children are the delimiters.
  for (let i = 1; i < kids.length - 1; i++) {
    const k = kids[i];
    if (!k || k.type === 'line_comment' || k.type === 'block_comment') continue;
    if (k.type === ',' || k.type === ';') close();
    else group.push(k);
  }
  close();
  return out;
}

/** No names left out of {@link typePaths}. */
const NO_NAMES: ReadonlySet<string> = new Set();

/** The name of a slice's element as an impl would write it (`u32`, `Header`), when known. */
function elementName(t: Ty | undefined): string | undefined {
  const e = deref(t);
  return e?.t === 'std' ? (e.name === '?' ? undefined : e.name) : e?.t === 'adt' ? itemOf(e.ref).name : undefined;
}

/** What std types deref to, for the program's traits implemented there. */
const OUTSIDE_DEREF: Readonly<Record<string, readonly string[]>> = { Vec: [SLICE], String: ['str'] };

/** std's operator traits, by the binary operator written. */
const BINARY_OPERATORS: Readonly<Record<string, string>> = {
  '+': 'Add',
  '-': 'Sub',
  '*': 'Mul',
  '/': 'Div',
  '%': 'Rem',
  '&': 'BitAnd',
  '|': 'BitOr',
  '^': 'BitXor',
  '<<': 'Shl',
  '>>': 'Shr',
};
/** Operators that give a `bool`. */
const COMPARISONS: ReadonlySet<string> = new Set(['==', '!=', '<', '>', '<=', '>=', '&&', '||']);
const BOOL: Ty = { t: 'std', name: 'bool', args: [] };

/** Associated functions that make a value of their type (`String::from(s)`, `Vec::with_capacity(n)`). */
const OUTSIDE_CONSTRUCTORS = new Set(['new', 'default', 'from', 'with_capacity']);
/** Associated functions of std's types that make a `Result` of their type. */
const FALLIBLE_CONSTRUCTORS = new Set(['try_from', 'from_str', 'from_str_radix', 'from_utf8', 'from_utf16']);

/**
 * The type a call makes of a type outside the program: a variant or tuple struct of it
 * (`SocketAddr::V4(a)`) or a constructor (`String::from(s)`, `u64::from(x)`), for the program's
 * trait impls for that type (`impl ToSocketAddrsPriv for SocketAddr`). Its type arguments are
 * not known.
 */
function outsideConstruction(fn: TsNode): Ty | undefined {
  const path = fn.type === 'generic_function' ? fn.childForFieldName('function') : fn;
  const segs = path ? pathSegments(path)?.segs : undefined;
  if (!segs || segs.length < 2) return undefined;
  const name = segs[segs.length - 1]!;
  const type = segs[segs.length - 2]!;
  if (!/^[A-Z]/.test(type) && !PRIMITIVE_TYPE_NAMES.has(type)) return undefined;
  if (/^[A-Z]/.test(name) || OUTSIDE_CONSTRUCTORS.has(name)) return outsideType(segs.slice(0, -1));
  // `u32::try_from(x)`, `str::from_utf8(b)`, `u64::from_str_radix(s, 16)`: a `Result` of the type.
  if (FALLIBLE_CONSTRUCTORS.has(name)) return { t: 'std', name: 'Result', args: [outsideType(segs.slice(0, -1))] };
  return undefined;
}

/**
 * The parameter types an `Fn*` bound gives a closure: of `impl FnOnce(A) -> R` (or `dyn`), or
 * of a generic parameter of the function (or of its impl or trait) bound by one.
 */
function fnSugarArgs(t: TypeExpr, fn: Item, file: FileIR): TypeExpr[] | undefined {
  const bounds = (list: readonly TypeExpr[]) => {
    return fnBound(list)?.fnArgs;
  };
  if (t.k === 'bounds') return bounds(t.traits);
  if (t.k !== 'path' || t.segs.length !== 1 || t.args.length > 0) return undefined;
  const name = t.segs[0]!;
  const parent = fn.parent !== -1 ? file.items[fn.parent] : undefined;
  const container = parent?.kind === 'impl' || parent?.kind === 'trait' ? parent : undefined;
  for (const owner of [fn, container]) {
    const g = owner?.generics?.find((x) => x.name === name);
    if (g) return bounds(g.bounds);
  }
  return undefined;
}

/**
 * Methods of std's smart pointers that give what they point to: their `AsRef`/`AsMut` impls, whose
 * traits are in the prelude (`borrow`, `deref` are not: without a `use` they reach the pointee's own).
 * `Cow<'_, B>` is `AsRef<B>` too (`cow.as_ref()` of a `Cow<str>` is a `&str`).
 */
const POINTER_VIEWS: Readonly<Record<string, ReadonlySet<string>>> = {
  Box: new Set(['as_ref', 'as_mut']),
  Rc: new Set(['as_ref']),
  Arc: new Set(['as_ref']),
  Cow: new Set(['as_ref']),
};

/** Whether module `m` is `outer` or inside it (where `outer`'s private items are visible). */
function within(m: Module, outer: Module): boolean {
  for (let x: Module | undefined = m; x; x = x.parent) if (x === outer) return true;
  return false;
}

/** A call of a value of type `t` (a local closure, a function pointer field): no edge, its return type when a callable's. */
function callOf(t: Ty | undefined): Callee {
  const d = deref(t);
  if (d?.t === 'std' && d.name === CALLABLE) return { targets: [], outcome: 'unknown', ...(d.args[0] ? { ret: d.args[0] } : {}) };
  if (d?.t === 'bounds' && d.calls) return { targets: [], outcome: 'unknown', ret: d.calls };
  return { targets: [], outcome: 'unknown' };
}

/**
 * The element patterns of a tuple or tuple-struct pattern, each with the position it binds:
 * `_` (an anonymous token) holds its place, and after `..` positions count from the end of
 * `arity` (unknown when the arity is).
 */
function patternSlots(p: TsNode, path: TsNode | null, arity: number | undefined): { node: TsNode; k: number | undefined }[] {
  const elems = p.children.filter(
    (c): c is TsNode => c !== null && c.id !== path?.id && !['(', ')', ',', 'line_comment', 'block_comment'].includes(c.type),
  );
  const rest = elems.findIndex((c) => c.type === 'remaining_field_pattern');
  const out: { node: TsNode; k: number | undefined }[] = [];
  elems.forEach((c, i) => {
    if (!c.isNamed || c.type === 'remaining_field_pattern') return;
    const k = rest >= 0 && i > rest ? (arity === undefined ? undefined : arity - (elems.length - i)) : i;
    out.push({ node: c, k });
  });
  return out;
}

/** Variants of std's enums that hold one value: the enum, and which of its type arguments the value is. */
const STD_VARIANTS: Readonly<Record<string, readonly [string, number]>> = {
  Some: ['Option', 0],
  Ok: ['Result', 0],
  Err: ['Result', 1],
  Ready: ['Poll', 0],
  Included: ['Bound', 0],
  Excluded: ['Bound', 0],
  Borrowed: ['Cow', 0],
};

/** Whether a type's path, as its `use` names it, is std's (`std::net::UdpSocket`, `core::…`). */
function isStdOrigin(origin: readonly string[] | undefined): boolean {
  return origin !== undefined && origin.length > 1 && (origin[0] === 'std' || origin[0] === 'core' || origin[0] === 'alloc');
}

/** `std::mem`'s functions that give back the value behind their first argument. */
const MEM_MOVES: ReadonlySet<string> = new Set(['take', 'replace']);

/** Whether two type arguments are different known types (`U128` and `U256`); a parameter or an unknown contradicts nothing. */
function contradicts(a: Ty | undefined, b: Ty | undefined): boolean {
  // (The resolver's own names, `#callable`, `?`, `[]`, are no type written in the program.)
  const head = (t: Ty | undefined): string | undefined =>
    t?.t === 'std' && /^[A-Za-z_]\w*$/.test(t.name) ? `std:${t.name}` : t?.t === 'adt' ? `adt:${refKey(t.ref)}` : undefined;
  const [x, y] = [head(a), head(b)];
  return x !== undefined && y !== undefined && x !== y;
}

/** The resolver's own `Iter`: an iterator std's methods made (`s.chars()`, `v.iter()`), not a type the program wrote. */
function isModelIterator(d: Ty & { t: 'std' }): boolean {
  return d.name === 'Iter' && d.origin === undefined && d.path === undefined;
}

/** What `e?` gives for an `e` of type `t`: the value of a `Result`, `Option` or `Poll`. */
function tried(t: Ty | undefined): Ty | undefined {
  const d = deref(t);
  return d?.t === 'std' && (d.name === 'Result' || d.name === 'Option' || d.name === 'Poll') ? d.args[0] : undefined;
}

/** std methods whose result is the type written at the call (`collect::<FlatSet<_>>()`, `parse::<u16>()`). */
const TURBOFISH_RESULTS: ReadonlySet<string> = new Set(['collect', 'sum', 'product', 'parse']);
/** Collections `collect::<C<_>>()` fills with the iterator's elements. */
const COLLECTIONS: ReadonlySet<string> = new Set(['Vec', 'VecDeque', 'LinkedList', 'BinaryHeap', 'HashSet', 'BTreeSet', 'SmallVec']);

/** What a std method of {@link TURBOFISH_RESULTS} called with `::<written>` on `recv` gives. */
function turbofishResult(name: string, written: Ty, recv: Ty): Ty {
  if (name === 'parse') return { t: 'std', name: 'Result', args: [written] };
  // `Vec<_>`: the element left to inference (read as `?`) is the iterator's.
  const a0 = written.t === 'std' ? written.args[0] : undefined;
  if (name === 'collect' && written.t === 'std' && COLLECTIONS.has(written.name) && (!a0 || (a0.t === 'std' && a0.name === '?'))) {
    const elem = elementOf(recv);
    if (elem) return { ...written, args: [elem] };
  }
  return written;
}

/** The public fields of std's range structs, each of the range's element type (`Range<T>.start` is a `T`). */
const STD_RANGE_FIELDS: Readonly<Record<string, readonly string[]>> = {
  Range: ['start', 'end'],
  RangeFrom: ['start'],
  RangeTo: ['end'],
  RangeToInclusive: ['end'],
};

/** std's tuple structs around one value: `.0` of a `Wrapping<T>` is a `T`. */
const STD_NEWTYPES = new Set(['Wrapping', 'Saturating', 'Reverse', 'AssertUnwindSafe']);

/**
 * `Pin`'s inherent methods: those giving a `Pin` again (`as_mut`), the pointee (`get_mut`), or
 * nothing the resolver follows (`set`).
 */
const PIN_METHODS: Readonly<Record<string, 'pin' | 'pointee' | 'none'>> = {
  // Any `Pin<P>`'s.
  as_mut: 'pin',
  as_ref: 'pin',
  set: 'none',
  // `Pin<&mut T>`'s and `Pin<&T>`'s. (`Pin::into_inner(p)` is an associated function: `p.into_inner()` is the pointee's.)
  into_ref: 'pin',
  get_mut: 'pointee',
  get_ref: 'pointee',
  get_unchecked_mut: 'pointee',
  map_unchecked: 'none',
  map_unchecked_mut: 'none',
};

/** `Pin` as written, to ask whether it is std's here (not a type of the program's). */
const PIN_TYPE: TypeExpr = { k: 'path', segs: ['Pin'], args: [] };

/** Whether `t` is one of std's owning pointers (`Box`, `Rc`, `Arc`), which a `Pin` may hold. */
function isStdPointer(t: Ty | undefined): boolean {
  return t?.t === 'std' && (t.name === 'Box' || t.name === 'Rc' || t.name === 'Arc');
}

/** How many of the program's `Deref` impls a method call follows (`Guard<Lock<T>>` → `Lock<T>` → `T`). */
const MAX_USER_DEREFS = 3;

/**
 * Methods every type has from std (blanket impls: `to_string`, `into`, `borrow` …) or takes by
 * `#[derive]` (`clone`, `eq`, `fmt`, `hash`, `cmp` …): a type that has one answers it itself,
 * before any `Deref` target would.
 */
const DERIVED_OR_BLANKET: ReadonlySet<string> = new Set(
  `clone clone_from fmt default eq ne hash cmp max min clamp partial_cmp lt le gt ge to_owned to_string into try_into
  from try_from borrow borrow_mut type_id deref deref_mut`.split(/\s+/),
);

/** Macros whose arguments' types are read (`vec![a]` is a `Vec` of `a`'s type, `try!(e)` is `e?`). */
const TYPED_ARGUMENTS: ReadonlySet<string> = new Set(['vec', 'try', 'r#try']);

/**
 * Whether a macro's arguments can hold a call or a macro (`format!("{}", self.name)` cannot:
 * no `(` and no `!`), or are read for their types: arguments that cannot are not parsed.
 */
function mayHoldCalls(m: TsNode, inner: string): boolean {
  if (inner.includes('(') || inner.includes('!')) return true;
  const last = macroLastName(m);
  return last !== undefined && TYPED_ARGUMENTS.has(last);
}

/** The last segment of an invocation's macro path (`vec` of `std::vec!`). */
function macroLastName(m: TsNode): string | undefined {
  const name = m.childForFieldName('macro');
  return name?.type === 'scoped_identifier' ? name.childForFieldName('name')?.text : name?.text;
}

/** The text between a macro invocation's delimiters, or undefined for macros that take no expressions. */
function macroInner(m: TsNode): string | undefined {
  const last = macroLastName(m);
  if (!last || NON_EXPRESSION_MACROS.has(last)) return undefined;
  const tt = m.namedChildren.find((c) => c?.type === 'token_tree');
  if (!tt) return undefined;
  const text = tt.text;
  if (text.length < 2) return undefined;
  return text.slice(1, -1);
}
