/**
 * Name and type resolution over the {@link Program}: what a name, an attribute or a call
 * denotes, the way a type checker answers it for the common cases — imports followed to the
 * definition, LEGB scopes, classes with their C3 method resolution order, `self`/`cls`,
 * `super()`, annotations (strings, `Optional`, unions, containers), instance attributes,
 * return types (declared, else inferred from `return`), `with … as`, `for` elements.
 *
 * It never guesses: a value it cannot know is no value, and a name that could denote too
 * many things denotes nothing.
 */
import { LATE, parseAnnotationString } from '../syntax/annotation-string.js';
import type { Binding, DefIR, Expr, UnpackPath } from '../syntax/module-ir.js';
import type { ModuleLocation } from './module-finder.js';
import type { Mod, Program } from './program.js';
import { type DefRef, defKey, NOTHING, type Resolved, type Ty, unionResolved, unionTys } from './types.js';

/** Annotation heads whose element type is their first argument (`List[X]`, `Iterator[X]`). */
const SEQUENCES = new Set(
  'list List Sequence MutableSequence Iterable Iterator Generator AsyncIterator AsyncIterable AsyncGenerator Collection Set set FrozenSet frozenset AbstractSet MutableSet Deque deque KeysView ValuesView Reversible'.split(
    ' ',
  ),
);
/** Annotation heads that map keys to values (`Dict[K, V]`). */
const MAPPINGS = new Set('dict Dict Mapping MutableMapping DefaultDict defaultdict OrderedDict Counter ChainMap'.split(' '));
/** Annotation heads that wrap one type (`ClassVar[X]` is X). */
const WRAPPERS = new Set('ClassVar Final Annotated Required NotRequired ReadOnly TypeGuard'.split(' '));
/** Modules whose names are typing constructs. */
const TYPING_MODULES = new Set(['typing', 'typing_extensions', 'collections.abc', 'collections', 'builtins']);
/** Bases that add no members a repository class could be looked up through. */
const TRANSPARENT_BASES = new Set(['builtins.object', 'typing.Generic', 'typing.Protocol', 'typing_extensions.Protocol', 'abc.ABC']);
/** Builtin calls whose result type is known. */
const BUILTIN_RESULTS: Record<string, Ty> = {
  'builtins.str': { t: 'builtin', name: 'str' },
  'builtins.repr': { t: 'builtin', name: 'str' },
  'builtins.int': { t: 'builtin', name: 'int' },
  'builtins.len': { t: 'builtin', name: 'int' },
  'builtins.bool': { t: 'builtin', name: 'bool' },
  'builtins.isinstance': { t: 'builtin', name: 'bool' },
  'builtins.float': { t: 'builtin', name: 'float' },
};
/** How deep a chain of resolutions may go before it is given up as unknown. */
const DEPTH_LIMIT = 40;

/**
 * @example
 * ```ts
 * const ev = new Evaluator(program);
 * const r = ev.resolveExpr(mod, call.scope, call.callee); // r.decls: the definitions called
 * ```
 */
export class Evaluator {
  private readonly bindingMemo = new Map<Binding, Resolved | null>();
  private readonly returnMemo = new Map<string, Ty[] | null>();
  private readonly mroMemo = new Map<string, (DefRef | 'opaque')[]>();
  private readonly exportMemo = new Map<string, Resolved | null>();
  private depth = 0;

  constructor(readonly program: Program) {}

  // ---- names ----

  /** What `name` means at offset `pos` of scope `scope` in `mod` (LEGB, flow-ordered in the scope itself). */
  lookupName(mod: Mod, scopeIdx: number, name: string, pos: number): Resolved {
    let s = scopeIdx;
    let first = true;
    let fromFunction = false;
    while (s >= 0) {
      const scope = mod.ir.scopes[s]!;
      if (scope.globals?.has(name)) return this.lookupName(mod, 0, name, LATE);
      // A class body is not visible from the functions nested in it.
      if (!(scope.kind === 'class' && fromFunction)) {
        const bindings = scope.names.get(name);
        if (bindings && bindings.length > 0) {
          const narrowed = first ? narrowingAt(bindings, pos) : undefined;
          if (narrowed) return this.binding(mod, s, narrowed);
          const plain = bindings.filter((b) => b.k !== 'narrow');
          const visible = first ? plain.filter((b) => b.pos < pos) : plain;
          if (plain.length > 0) return this.fromBindings(mod, s, visible.length > 0 ? visible : plain, plain);
        }
        if (scope.stars) {
          const r = this.fromStars(mod, scope.stars, name);
          if (r) return r;
        }
      }
      if (scope.kind === 'function' || scope.kind === 'lambda') fromFunction = true;
      if (scope.kind === 'comprehension' && first) fromFunction = false;
      first = false;
      s = scope.parent;
    }
    if (name === '__name__' || name === '__file__' || name === '__doc__') return { decls: [], values: [{ t: 'builtin', name: 'str' }] };
    return { decls: [], values: [{ t: 'ext', name: `builtins.${name}` }] };
  }

  /**
   * The bindings of one name in one scope. Every definition statement of a name in a scope
   * is one symbol, as a type checker sees it (`if WIN: def f() … else: def f() …`, overloads):
   * it denotes the first of them, while its values come from the bindings that reach the use.
   */
  private fromBindings(mod: Mod, scope: number, bindings: readonly Binding[], all: readonly Binding[] = bindings): Resolved {
    const r =
      bindings.length === 1 ? this.binding(mod, scope, bindings[0]!) : unionResolved(bindings.map((b) => this.binding(mod, scope, b)));
    const firstDef = all.find((b) => b.k === 'def');
    if (!firstDef || (r.decls.length === 1 && r.decls[0]!.mod === mod && r.decls[0]!.def === firstDef.def)) return r;
    if (!r.decls.some((d) => d.mod === mod)) return r;
    return { decls: [{ mod, def: firstDef.def }, ...r.decls.filter((d) => d.mod !== mod)], values: r.values };
  }

  private fromStars(mod: Mod, stars: NonNullable<Mod['ir']['scopes'][number]['stars']>, name: string): Resolved | undefined {
    for (const star of stars) {
      const loc = this.locate(mod, star.module, star.level);
      if (!loc) continue;
      const target = this.program.moduleAt(loc);
      if (!target || target === mod) continue;
      if (!this.exports(target, name)) continue;
      const r = this.moduleMember(loc, name);
      if (r.decls.length > 0 || r.values.length > 0) return r;
    }
    return undefined;
  }

  /** Whether `from mod import *` brings `name`: its `__all__`, else its public names. */
  private exports(mod: Mod, name: string): boolean {
    if (mod.ir.all) return mod.ir.all.includes(name);
    if (name.startsWith('_')) return false;
    return mod.ir.scopes[0]!.names.has(name) || Boolean(mod.ir.scopes[0]!.stars?.length);
  }

  /** The value of one binding (memoized; a binding that depends on itself has no value). */
  private binding(mod: Mod, scope: number, b: Binding): Resolved {
    const memo = this.bindingMemo.get(b);
    if (memo !== undefined) return memo ?? NOTHING;
    if (this.depth > DEPTH_LIMIT) return NOTHING;
    this.bindingMemo.set(b, null);
    this.depth++;
    let r: Resolved;
    try {
      r = this.computeBinding(mod, scope, b);
    } finally {
      this.depth--;
    }
    this.bindingMemo.set(b, r);
    return r;
  }

  private computeBinding(mod: Mod, scope: number, b: Binding): Resolved {
    switch (b.k) {
      case 'def': {
        const def = mod.ir.defs[b.def]!;
        const ref = { mod, def: b.def };
        if (def.kind === 'class') return { decls: [ref], values: [{ t: 'class', c: ref }] };
        if (def.kind === 'function' || def.kind === 'method' || def.kind === 'property')
          return { decls: [ref], values: [{ t: 'func', f: ref }] };
        return { decls: [ref], values: [] };
      }
      case 'assign': {
        if (b.ann) return { decls: [], values: this.annotationType(mod, scope, b.ann) };
        return { decls: [], values: unpack(this.values(mod, scope, b.value), b.path) };
      }
      case 'import':
        return this.importBinding(mod, b);
      case 'param':
        return { decls: [], values: this.paramType(mod, b) };
      case 'for':
        return { decls: [], values: unpack(this.elementsOf(this.values(mod, scope, b.iter)), b.path) };
      case 'with':
        return { decls: [], values: unpack(this.entered(this.values(mod, scope, b.ctx)), b.path) };
      case 'narrow':
        return { decls: [], values: this.instancesOf(this.tupleValues(mod, scope, b.types)) };
      case 'except': {
        const classes = b.types.k === 'lit' && b.types.t === 'tuple' ? (b.types.items ?? []) : [b.types];
        return { decls: [], values: unionTys(...classes.map((e) => this.instancesOf(this.values(mod, scope, e)))) };
      }
      case 'unknown':
        return NOTHING;
    }
  }

  private importBinding(mod: Mod, b: Binding & { k: 'import' }): Resolved {
    if (b.name === undefined) {
      // import a.b.c (binds a) / import a.b.c as d (binds a.b.c)
      const loc = this.locate(mod, b.module, 0);
      return { decls: [], values: [loc ? { t: 'module', loc } : { t: 'ext', name: b.module }] };
    }
    const loc = this.locate(mod, b.module, b.level);
    if (!loc) return b.level > 0 ? NOTHING : { decls: [], values: [{ t: 'ext', name: `${b.module}.${b.name}` }] };
    return this.moduleMember(loc, b.name);
  }

  /** A module of the repository by absolute or relative name, from `mod`. */
  locate(mod: Mod, module: string, level: number): ModuleLocation | undefined {
    const finder = this.program.finder;
    return level > 0 ? finder.resolveRelative(level, module, mod.path) : finder.resolveAbsolute(module, mod.path);
  }

  /** `module.name`: a name the module binds (every binding), a star import, or a submodule. */
  moduleMember(loc: ModuleLocation, name: string): Resolved {
    const key = `${loc.file ?? loc.dir}\0${name}`;
    const memo = this.exportMemo.get(key);
    if (memo !== undefined) return memo ?? NOTHING;
    this.exportMemo.set(key, null);
    let r: Resolved = NOTHING;
    const mod = this.program.moduleAt(loc);
    if (mod) {
      const bindings = mod.ir.scopes[0]!.names.get(name);
      if (bindings && bindings.length > 0) r = this.fromBindings(mod, 0, bindings);
      else if (mod.ir.scopes[0]!.stars) r = this.fromStars(mod, mod.ir.scopes[0]!.stars, name) ?? NOTHING;
    }
    if (r.decls.length === 0 && r.values.length === 0) {
      const sub = this.program.finder.submodule(loc, name);
      if (sub) r = { decls: [], values: [{ t: 'module', loc: sub }] };
    }
    this.exportMemo.set(key, r);
    return r;
  }

  private paramType(mod: Mod, b: Binding & { k: 'param' }): Ty[] {
    const def = mod.ir.defs[b.def]!;
    if (b.star === '*') return [{ t: 'builtin', name: 'tuple' }];
    if (b.star === '**') return [{ t: 'builtin', name: 'dict' }];
    if (b.ann) return this.annotationType(mod, def.outer, b.ann);
    if (b.index === 0 && def.kind !== 'function' && !def.decoratorNames.includes('staticmethod')) {
      const cls = def.parent >= 0 ? mod.ir.defs[def.parent] : undefined;
      if (cls?.kind === 'class') {
        const ref = { mod, def: def.parent };
        return def.decoratorNames.includes('classmethod') || def.name === '__new__' || def.name === '__init_subclass__'
          ? [{ t: 'class', c: ref }]
          : [{ t: 'inst', c: ref }];
      }
    }
    if (b.dflt && !(b.dflt.k === 'lit' && b.dflt.t === 'none')) return this.values(mod, def.outer, b.dflt);
    return [];
  }

  // ---- expressions ----

  /** The possible values of an expression. */
  values(mod: Mod, scope: number, e: Expr): Ty[] {
    return this.resolveExpr(mod, scope, e).values;
  }

  /** What an expression denotes (definitions, for edges) and its possible values. */
  resolveExpr(mod: Mod, scope: number, e: Expr): Resolved {
    if (this.depth > DEPTH_LIMIT) return NOTHING;
    this.depth++;
    try {
      return this.computeExpr(mod, scope, e);
    } finally {
      this.depth--;
    }
  }

  private computeExpr(mod: Mod, scope: number, e: Expr): Resolved {
    switch (e.k) {
      case 'name':
        return this.lookupName(mod, scope, e.id, e.pos);
      case 'attr': {
        const obj = this.values(mod, scope, e.obj);
        if (obj.length === 0) return NOTHING;
        if (obj.length === 1) return this.member(obj[0]!, e.name);
        // A member of a union (`x = A() if c else B()`): its value may come from any member
        // type, but the reference names one declaration, of the first type that has the
        // member — as pyright's index does.
        const members = obj.map((t) => this.member(t, e.name));
        const first = members.find((m) => m.decls.length > 0);
        return { decls: first ? first.decls : [], values: unionTys(...members.map((m) => m.values)) };
      }
      case 'call': {
        if (e.fn.k === 'name' && e.fn.id === 'super') return { decls: [], values: this.superOf(mod, scope, e) };
        const fn = this.values(mod, scope, e.fn);
        return { decls: [], values: unionTys(...fn.map((t) => this.callResult(mod, scope, t, e))) };
      }
      case 'sub': {
        const obj = this.values(mod, scope, e.obj);
        return { decls: [], values: unionTys(...obj.map((t) => this.subscriptOf(t))) };
      }
      case 'union':
        return { decls: [], values: unionTys(...e.items.map((i) => this.values(mod, scope, i))) };
      case 'lit':
        return { decls: [], values: [this.literal(mod, scope, e)] };
      case 'await':
        return { decls: [], values: this.values(mod, scope, e.e) };
      case 'func':
        return { decls: [], values: [{ t: 'func', f: { mod, def: e.def } }] };
      case 'str':
        return { decls: [], values: [{ t: 'builtin', name: 'str' }] };
      case 'unknown':
        return NOTHING;
    }
  }

  private literal(mod: Mod, scope: number, e: Expr & { k: 'lit' }): Ty {
    if (e.t === 'none') return { t: 'none' };
    if (e.t === 'list' || e.t === 'set') {
      const items = e.items ?? [];
      return { t: 'builtin', name: e.t, args: [unionTys(...items.slice(0, 16).map((i) => this.values(mod, scope, i)))] };
    }
    if (e.t === 'tuple') return { t: 'builtin', name: 'tuple', args: (e.items ?? []).slice(0, 16).map((i) => this.values(mod, scope, i)) };
    if (e.t === 'dict') {
      const keys = (e.items ?? []).slice(0, 16).map((i) => this.values(mod, scope, i));
      const values = (e.values ?? []).slice(0, 16).map((i) => this.values(mod, scope, i));
      return { t: 'builtin', name: 'dict', args: [unionTys(...keys), unionTys(...values)] };
    }
    return { t: 'builtin', name: e.t };
  }

  // ---- members ----

  /** `value.name`. */
  member(t: Ty, name: string): Resolved {
    switch (t.t) {
      case 'module':
        return this.moduleMember(t.loc, name);
      case 'class':
        if (name === '__class__') return NOTHING;
        return this.classMember(t.c, name, 'class', t);
      case 'inst':
        if (name === '__class__') return { decls: [], values: [{ t: 'class', c: t.c }] };
        return this.classMember(t.c, name, 'inst', t);
      case 'super':
        return this.classMember(t.c, name, t.self.t === 'class' ? 'class' : 'inst', t.self, true);
      case 'ext':
        return TYPING_MODULES.has(t.name) || /^[a-z_][a-z0-9_.]*$/.test(t.name)
          ? { decls: [], values: [{ t: 'ext', name: `${t.name}.${name}` }] }
          : NOTHING;
      case 'builtin':
      case 'func':
      case 'none':
        return NOTHING;
    }
  }

  /**
   * A member looked up through the MRO of a class, as the class object (`via: 'class'`) or
   * an instance. Lookup stops at a base that is not a repository class (an unresolved name, a
   * library class): what it would find there is unknown.
   */
  private classMember(c: DefRef, name: string, via: 'class' | 'inst', receiver: Ty, skipFirst = false): Resolved {
    const mro = this.mro(c);
    for (let i = skipFirst ? 1 : 0; i < mro.length; i++) {
      const k = mro[i]!;
      if (k === 'opaque') return NOTHING;
      const cls = k.mod.ir.defs[k.def]!;
      const scope = k.mod.ir.scopes[cls.scope];
      const bindings = scope?.names.get(name);
      const attrs = via === 'inst' ? cls.instanceAttrs?.get(name) : undefined;
      if (!bindings?.length && !attrs?.length) continue;
      const parts: Resolved[] = [];
      if (bindings?.length) parts.push(this.boundMembers(k, cls.scope, bindings, via, receiver));
      if (attrs?.length) {
        const values = attrs.map((a) =>
          a.ann ? this.annotationType(k.mod, a.scope, a.ann) : a.value ? unpack(this.values(k.mod, a.scope, a.value), a.path) : [],
        );
        parts.push({ decls: [], values: unionTys(...values) });
      }
      return unionResolved(parts);
    }
    return NOTHING;
  }

  /** Class-body bindings seen through a class or an instance: methods become bound, properties their value. */
  private boundMembers(k: DefRef, scope: number, bindings: readonly Binding[], via: 'class' | 'inst', receiver: Ty): Resolved {
    const r = this.fromBindings(k.mod, scope, bindings);
    if (via === 'class') return r;
    const values: Ty[][] = [];
    for (const v of r.values) {
      if (v.t === 'func') {
        const def = v.f.mod.ir.defs[v.f.def]!;
        if (def.kind === 'property') values.push(this.returnType(v.f, receiver));
        else if (def.decoratorNames.includes('staticmethod')) values.push([v]);
        else values.push([{ t: 'func', f: v.f, self: receiver }]);
      } else values.push([v]);
    }
    return { decls: r.decls, values: unionTys(...values) };
  }

  /** The C3 linearization of a class; `'opaque'` stands for a base that is not a repository class. */
  mro(c: DefRef): (DefRef | 'opaque')[] {
    const key = defKey(c);
    const memo = this.mroMemo.get(key);
    if (memo) return memo;
    this.mroMemo.set(key, [c]); // a class inheriting from itself, through a cycle, ends here
    const def = c.mod.ir.defs[c.def]!;
    const bases: (DefRef | 'opaque')[] = [];
    for (const b of def.bases ?? []) {
      const values = this.values(c.mod, def.outer, b.k === 'sub' ? b.obj : b);
      const classes = values.filter((v): v is Ty & { t: 'class' } => v.t === 'class');
      if (classes.length === 1 && values.length === 1) bases.push(classes[0]!.c);
      else if (values.length === 1 && values[0]!.t === 'ext' && TRANSPARENT_BASES.has(values[0]!.name)) continue;
      else bases.push('opaque');
    }
    const linear = c3(
      c,
      bases.map((b) => (b === 'opaque' ? ['opaque' as const] : this.mro(b))),
      bases,
    );
    this.mroMemo.set(key, linear);
    return linear;
  }

  private superOf(mod: Mod, scope: number, call: Expr & { k: 'call' }): Ty[] {
    if (call.args.length >= 1) {
      // super(C, self)
      const cls = this.values(mod, scope, call.args[0]!).find((v): v is Ty & { t: 'class' } => v.t === 'class');
      const self = call.args[1] ? this.values(mod, scope, call.args[1]) : [];
      return cls ? [{ t: 'super', c: cls.c, self: self[0] ?? { t: 'inst', c: cls.c } }] : [];
    }
    // super(): the class of the enclosing method and its first parameter.
    for (let s = scope; s >= 0; s = mod.ir.scopes[s]!.parent) {
      const sc = mod.ir.scopes[s]!;
      if (sc.kind !== 'function' || sc.def < 0) continue;
      const fn = mod.ir.defs[sc.def]!;
      const cls = fn.parent >= 0 ? mod.ir.defs[fn.parent] : undefined;
      if (cls?.kind !== 'class') return [];
      const c = { mod, def: fn.parent };
      const classLevel = fn.decoratorNames.includes('classmethod') || fn.name === '__new__';
      return [{ t: 'super', c, self: classLevel ? { t: 'class', c } : { t: 'inst', c } }];
    }
    return [];
  }

  // ---- calls ----

  /** The value of calling `fn`. */
  private callResult(mod: Mod, scope: number, fn: Ty, call: Expr & { k: 'call' }): Ty[] {
    switch (fn.t) {
      case 'class':
        return [{ t: 'inst', c: fn.c }];
      case 'func':
        return this.returnType(fn.f, fn.self);
      case 'ext': {
        const known = BUILTIN_RESULTS[fn.name];
        if (known) return [known];
        if ((fn.name === 'copy.copy' || fn.name === 'copy.deepcopy') && call.args[0]) return this.values(mod, scope, call.args[0]);
        if (fn.name === 'typing.cast' || fn.name === 'typing_extensions.cast') {
          return call.args[0] ? this.annotationType(mod, scope, call.args[0]) : [];
        }
        if (fn.name === 'builtins.type' && call.args.length === 1) {
          return this.values(mod, scope, call.args[0]!).flatMap((v) => (v.t === 'inst' ? [{ t: 'class' as const, c: v.c }] : []));
        }
        const container = fn.name.startsWith('builtins.') ? fn.name.slice(9) : '';
        if (container === 'list' || container === 'set' || container === 'tuple' || container === 'dict' || container === 'frozenset') {
          const arg = call.args[0];
          if (!arg || container === 'dict') return [{ t: 'builtin', name: container }];
          return [
            { t: 'builtin', name: container === 'frozenset' ? 'set' : container, args: [this.elementsOf(this.values(mod, scope, arg))] },
          ];
        }
        if (container === 'sorted' || container === 'reversed' || container === 'iter') {
          const arg = call.args[0];
          return [{ t: 'builtin', name: 'list', args: [arg ? this.elementsOf(this.values(mod, scope, arg)) : []] }];
        }
        return [];
      }
      case 'builtin':
      case 'inst':
      case 'module':
      case 'none':
      case 'super':
        return [];
    }
  }

  /** The return type of a function: its annotation, else the union of what its `return` statements give. */
  returnType(f: DefRef, self?: Ty): Ty[] {
    const def = f.mod.ir.defs[f.def]!;
    const key = defKey(f);
    let base = this.returnMemo.get(key);
    if (base === null) return []; // recursion
    if (base === undefined) {
      this.returnMemo.set(key, null);
      base = this.computeReturn(f, def);
      this.returnMemo.set(key, base);
    }
    if (!self) return base;
    // `return self` in a method of a base class returns the receiver's own class.
    const own = def.parent >= 0 ? defKey({ mod: f.mod, def: def.parent }) : '';
    return base.map((t) => ((t.t === 'inst' || t.t === 'class') && defKey(t.c) === own && self.t === t.t ? self : t));
  }

  private computeReturn(f: DefRef, def: DefIR): Ty[] {
    // A @contextmanager generator: `with f() as x` gives what it yields, which is not tracked.
    if (def.decoratorNames.some((d) => d.endsWith('contextmanager'))) return [];
    if (def.returns) return this.annotationType(f.mod, def.outer, def.returns);
    if (def.isGenerator) return [];
    const exprs = def.returnExprs ?? [];
    if (exprs.length === 0) return def.isAsync ? [] : [{ t: 'none' }];
    return unionTys(...exprs.map((e) => this.values(f.mod, def.scope, e)));
  }

  // ---- annotations ----

  /** The values an annotation describes (`Session` → an instance of Session). */
  annotationType(mod: Mod, scope: number, e: Expr): Ty[] {
    switch (e.k) {
      case 'str':
        return this.annotationType(mod, scope, parseAnnotationString(e.v));
      case 'lit':
        return e.t === 'none' ? [{ t: 'none' }] : [];
      case 'union':
        return unionTys(...e.items.map((i) => this.annotationType(mod, scope, i)));
      case 'name':
      case 'attr': {
        const v = this.lateValues(mod, scope, e);
        return unionTys(...v.map((t) => this.instanceOfAnnotation(t)));
      }
      case 'sub': {
        const head = this.lateValues(mod, scope, e.obj);
        if (head.length !== 1) return [];
        const h = head[0]!;
        const args = e.idx;
        if (h.t === 'class') return [{ t: 'inst', c: h.c }];
        if (h.t !== 'ext') return [];
        const name = h.name.slice(h.name.lastIndexOf('.') + 1);
        const arg = (i: number) => (args[i] ? this.annotationType(mod, scope, args[i]) : []);
        if (name === 'Optional') return unionTys(arg(0), [{ t: 'none' }]);
        if (name === 'Union') return unionTys(...args.map((_, i) => arg(i)));
        if (WRAPPERS.has(name)) return arg(0);
        if (name === 'Type' || name === 'type') return arg(0).flatMap((t) => (t.t === 'inst' ? [{ t: 'class' as const, c: t.c }] : []));
        if (SEQUENCES.has(name)) return [{ t: 'builtin', name: 'list', args: [arg(0)] }];
        if (MAPPINGS.has(name)) return [{ t: 'builtin', name: 'dict', args: [arg(0), arg(1)] }];
        if (name === 'Tuple' || name === 'tuple') {
          const homogeneous = args.length === 2 && args[1]!.k === 'unknown';
          return [{ t: 'builtin', name: 'tuple', args: homogeneous ? [arg(0)] : args.map((_, i) => arg(i)) }];
        }
        if (name === 'Awaitable' || name === 'Coroutine') return arg(args.length - 1);
        return [];
      }
      case 'await':
      case 'call':
      case 'func':
      case 'unknown':
        return [];
    }
  }

  /** Names in annotations are evaluated late: every binding of their scope counts. */
  private lateValues(mod: Mod, scope: number, e: Expr): Ty[] {
    if (e.k === 'name') return this.lookupName(mod, scope, e.id, LATE).values;
    if (e.k === 'attr') return unionTys(...this.lateValues(mod, scope, e.obj).map((t) => this.member(t, e.name).values));
    return this.values(mod, scope, e);
  }

  private instanceOfAnnotation(t: Ty): Ty[] {
    if (t.t === 'class') return [{ t: 'inst', c: t.c }];
    if (t.t === 'none') return [t];
    if (t.t === 'ext') {
      const name = t.name.slice(t.name.lastIndexOf('.') + 1);
      if (
        t.name === 'builtins.str' ||
        t.name === 'builtins.int' ||
        t.name === 'builtins.bytes' ||
        t.name === 'builtins.float' ||
        t.name === 'builtins.bool'
      )
        return [{ t: 'builtin', name }];
      if (SEQUENCES.has(name)) return [{ t: 'builtin', name: 'list', args: [[]] }];
      if (MAPPINGS.has(name)) return [{ t: 'builtin', name: 'dict', args: [[], []] }];
    }
    return [];
  }

  // ---- containers and protocols ----

  /** What iterating over values gives (`for x in values`). */
  elementsOf(values: readonly Ty[]): Ty[] {
    // An iterator's __iter__ returns itself: the element comes from __next__, not from iterating again.
    if (this.depth > DEPTH_LIMIT) return [];
    this.depth++;
    try {
      return this.computeElements(values);
    } finally {
      this.depth--;
    }
  }

  private computeElements(values: readonly Ty[]): Ty[] {
    return unionTys(
      ...values.map((t): Ty[] => {
        if (t.t === 'builtin') {
          if (t.name === 'str') return [t];
          if (t.name === 'tuple') return unionTys(...(t.args ?? []));
          return t.args?.[0] ?? [];
        }
        if (t.t === 'inst') {
          const iter = this.classMember(t.c, '__iter__', 'inst', t).values;
          return unionTys(
            ...iter.map((f) => {
              if (f.t !== 'func') return [];
              const it = this.returnType(f.f, f.self);
              // `return self`: the class is its own iterator; its elements are what __next__ returns.
              if (it.length === 1 && it[0]!.t === 'inst' && defKey(it[0]!.c) === defKey(t.c)) {
                const next = this.classMember(t.c, '__next__', 'inst', t).values;
                return unionTys(...next.map((n) => (n.t === 'func' ? this.returnType(n.f, n.self) : [])));
              }
              return this.elementsOf(it);
            }),
          );
        }
        return [];
      }),
    );
  }

  /** `value[...]`. */
  private subscriptOf(t: Ty): Ty[] {
    if (t.t === 'builtin') {
      if (t.name === 'dict') return t.args?.[1] ?? [];
      if (t.name === 'tuple') return unionTys(...(t.args ?? []));
      if (t.name === 'str') return [t];
      return t.args?.[0] ?? [];
    }
    if (t.t === 'inst') {
      const get = this.classMember(t.c, '__getitem__', 'inst', t).values;
      return unionTys(...get.map((f) => (f.t === 'func' ? this.returnType(f.f, f.self) : [])));
    }
    if (t.t === 'class') return [t]; // Generic[...] alias: still the class
    return [];
  }

  /** `with value as x`: what `__enter__` returns. */
  private entered(values: readonly Ty[]): Ty[] {
    return unionTys(
      ...values.map((t): Ty[] => {
        if (t.t !== 'inst') return [];
        const enter = this.classMember(t.c, '__enter__', 'inst', t).values;
        const aenter = enter.length > 0 ? enter : this.classMember(t.c, '__aenter__', 'inst', t).values;
        return unionTys(...aenter.map((f) => (f.t === 'func' ? this.returnType(f.f, f.self) : [])));
      }),
    );
  }

  /** The values of a class or a tuple of classes (`isinstance(x, (A, B))`). */
  private tupleValues(mod: Mod, scope: number, e: Expr): Ty[] {
    if (e.k === 'lit' && e.t === 'tuple') return unionTys(...(e.items ?? []).map((i) => this.values(mod, scope, i)));
    return this.values(mod, scope, e);
  }

  /** Instances of the classes among values (`except (A, B) as e`). */
  private instancesOf(values: readonly Ty[]): Ty[] {
    return values.flatMap((v) => (v.t === 'class' ? [{ t: 'inst' as const, c: v.c }] : []));
  }

  /** Counts, for the log. */
  stats(): { bindings: number; returns: number; classes: number } {
    return { bindings: this.bindingMemo.size, returns: this.returnMemo.size, classes: this.mroMemo.size };
  }
}

/**
 * The narrowing in force at `pos`: the innermost `isinstance` range around it with no other
 * binding of the name between its start and the use (a reassignment ends it).
 */
function narrowingAt(bindings: readonly Binding[], pos: number): Binding | undefined {
  let best: (Binding & { k: 'narrow' }) | undefined;
  for (const b of bindings) if (b.k === 'narrow' && b.pos <= pos && pos < b.end && (!best || b.pos > best.pos)) best = b;
  if (!best) return undefined;
  const start = best.pos;
  return bindings.some((b) => b.k !== 'narrow' && b.pos > start && b.pos < pos) ? undefined : best;
}

/** The element of an unpacked value at a path (`a, (b, c) = …`). */
function unpack(values: Ty[], path: UnpackPath | undefined): Ty[] {
  if (!path || path.length === 0) return values;
  let cur = values;
  for (const i of path) {
    cur = unionTys(
      ...cur.map((t): Ty[] => {
        if (t.t !== 'builtin') return [];
        if (t.name === 'tuple') {
          const args = t.args ?? [];
          return args.length === 1 ? args[0]! : (args[i] ?? []);
        }
        if (t.name === 'list' || t.name === 'set') return t.args?.[0] ?? [];
        return [];
      }),
    );
  }
  return cur;
}

/** C3 linearization; falls back to depth-first order when the hierarchy has no consistent one. */
function c3(c: DefRef, baseMros: (DefRef | 'opaque')[][], bases: (DefRef | 'opaque')[]): (DefRef | 'opaque')[] {
  const key = (x: DefRef | 'opaque') => (x === 'opaque' ? 'opaque' : defKey(x));
  const seqs = [...baseMros.map((m) => [...m]), [...bases]].filter((s) => s.length > 0);
  const out: (DefRef | 'opaque')[] = [c];
  for (let guard = 0; guard < 1000; guard++) {
    const live = seqs.filter((s) => s.length > 0);
    if (live.length === 0) return out;
    let head: DefRef | 'opaque' | undefined;
    for (const s of live) {
      const cand = s[0]!;
      const k = key(cand);
      if (k === 'opaque' || !live.some((o) => o.slice(1).some((x) => key(x) === k))) {
        head = cand;
        break;
      }
    }
    if (head === undefined) break;
    out.push(head);
    const hk = key(head);
    for (const s of live) if (key(s[0]!) === hk) s.shift();
    if (hk === 'opaque') return out; // nothing after an unknown base can be trusted
  }
  // Inconsistent: depth-first, left to right, first occurrence.
  const seen = new Set<string>([defKey(c)]);
  const dfs: (DefRef | 'opaque')[] = [c];
  for (const m of baseMros)
    for (const x of m) {
      if (x === 'opaque') {
        dfs.push(x);
        return dfs;
      }
      if (!seen.has(defKey(x))) {
        seen.add(defKey(x));
        dfs.push(x);
      }
    }
  return dfs;
}
