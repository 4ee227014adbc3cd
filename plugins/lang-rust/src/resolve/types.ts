/**
 * Types as far as method resolution needs them: a struct, enum or union of the program with
 * its type arguments, a set of trait bounds (a generic parameter, `impl Trait`, `dyn Trait`,
 * `Self` in a trait), or a type from outside the program (`Option<T>`, `Vec<T>`), kept by name
 * with its arguments so that `?`, `unwrap()`, indexing and iteration can see through it.
 */
import type { Item, TypeExpr } from '../syntax/file-ir.js';
import { dedupeRefs, type ItemRef, itemOf, knownAs, type Names, refKey, type Scope } from './names.js';
import type { Module } from './program.js';

export type Ty =
  | { t: 'adt'; ref: ItemRef; args: Ty[] }
  | {
      t: 'bounds';
      traits: ItemRef[];
      outside?: readonly string[][];
      calls?: Ty;
      assoc?: Readonly<Record<string, Ty>>;
      /** The arguments written on a trait of the bounds (`F: Parser<I, O, E>`), by the trait's {@link refKey}. */
      traitArgs?: Readonly<Record<string, readonly (Ty | undefined)[]>>;
    }
  /** `path` as written; `origin` the path its `use` names (`std::net::UdpSocket`), where read from a type written in the program. */
  | { t: 'std'; name: string; args: Ty[]; path?: readonly string[]; origin?: readonly string[] }
  | { t: 'tuple'; elems: Ty[] }
  | { t: 'array'; elem: Ty };

/** Where a type is read: a scope, the generic parameters in force (bound to types when known) and `Self`. */
export interface TyCtx {
  scope: Scope;
  generics: Map<string, Ty | undefined>;
  self?: Ty | undefined;
}

/** How far up a trait's supertraits their arguments are followed (a cycle is an error rustc reports). */
const MAX_SUPERTRAIT_DEPTH = 8;

/** The std type name of slices and arrays whose element is unknown, and the key of the program's impls for any slice or array. */
export const SLICE = '[]';

/**
 * The std type name of what pin-project's `project()` / `project_ref()` give for a struct it
 * projects (`{ t: 'std', name: PIN_PROJECTION, args: [the struct] }`): its fields, each a
 * `Pin<&mut T>` when `#[pin]`, else `&mut T`. The projection struct has no methods.
 */
export const PIN_PROJECTION = '#pin-projection';

/** Whether a struct is pin-project's: `#[pin_project]`, or written in pin-project-lite's `pin_project! { … }`. */
export function isPinProjected(it: Item): boolean {
  return it.attrs?.some((a) => /^(pin_project\s*::\s*)?pin_project\b/.test(a)) === true;
}

/** The std type name a raw pointer (`*const T`, `*mut T`) reads as: `*p` gives `T`, a method call does not deref it. */
export const RAW_POINTER = '*ptr';

/** `*t`: what a raw pointer points to, or what auto-deref reaches. */
export function derefOnce(t: Ty | undefined): Ty | undefined {
  return t?.t === 'std' && t.name === RAW_POINTER ? t.args[0] : deref(t);
}

/** What a where clause gives an associated type twice: nothing the resolver follows. */
const CONFLICT: Ty = { t: 'std', name: '#conflict', args: [] };

/** The std type name of a callable (a `fn` pointer, a closure bound by `Fn*`): its one argument is what a call returns. */
export const CALLABLE = '#callable';
/** The closure traits. */
export const FN_TRAITS: ReadonlySet<string> = new Set(['Fn', 'FnMut', 'FnOnce']);

/** The `Fn*(A) -> R` bound among `bounds`, written with its parameters, if any. */
export function fnBound(bounds: readonly TypeExpr[]): (TypeExpr & { k: 'path' }) | undefined {
  return bounds.find(
    (b): b is TypeExpr & { k: 'path' } => b.k === 'path' && b.fnArgs !== undefined && FN_TRAITS.has(b.segs[b.segs.length - 1]!),
  );
}

/**
 * The std type name of a type parameter that is a pointer by its bounds (`P: DerefMut` with
 * `P::Target: Stream`, or `P: Deref<Target = T>`): its one argument is the target.
 */
export const DEREF_PARAM = '#deref-param';

/**
 * The std type name of a value known only by a conversion bound (`V: Into<Value>`,
 * `impl AsRef<Path>`): its one argument is what `into()` (or `as_ref()`) gives; see {@link CONVERSIONS}.
 */
export const CONVERTIBLE = '#convertible';
/** std's conversion traits a bound names, by the method that converts. */
export const CONVERSIONS: Readonly<Record<string, string>> = { Into: 'into', AsRef: 'as_ref' };
/** std's pointer traits, whose `Target` a parameter bounded by one derefs to. */
const DEREF_TRAITS: ReadonlySet<string> = new Set(['Deref', 'DerefMut']);

/** Smart pointers and guards a method call sees through (auto-deref). */
const DEREF_STD = new Set([
  DEREF_PARAM,
  'Box',
  'Rc',
  'Arc',
  'Ref',
  'RefMut',
  'MutexGuard',
  'RwLockReadGuard',
  'RwLockWriteGuard',
  'Cow',
  'ManuallyDrop',
  'Pin',
  'Weak',
]);
/** Sequences whose index and iteration give their first argument. */
const SEQUENCES = new Set([
  'Vec',
  'VecDeque',
  'LinkedList',
  'BinaryHeap',
  'HashSet',
  'BTreeSet',
  'IntoIter',
  'Iter',
  'IterMut',
  'SmallVec',
  'Range',
]);
const MAX_DEPTH = 12;
const ITERATOR_TRAITS = new Set(['Iterator', 'DoubleEndedIterator', 'ExactSizeIterator', 'IntoIterator', 'FusedIterator']);
/** Traits whose `Item` is what a type of the program gives as an iterator (its adapters' closures get it): std's, rayon's, futures'. */
export const ITERATING_TRAITS: ReadonlySet<string> = new Set([
  'Iterator',
  'DoubleEndedIterator',
  'ExactSizeIterator',
  'FusedIterator',
  'ParallelIterator',
  'IndexedParallelIterator',
  'Stream',
  'TryStream',
  'FusedStream',
]);
/** …and what `for` or `into_iter()` reads: those of `IntoIterator` too. */
export const INTO_ITERATING_TRAITS: ReadonlySet<string> = new Set([...ITERATING_TRAITS, 'IntoIterator', 'IntoParallelIterator']);

/** `Box<T>` → `T`, repeatedly. */
export function deref(t: Ty | undefined): Ty | undefined {
  for (let i = 0; i < MAX_DEPTH && t?.t === 'std' && DEREF_STD.has(t.name) && t.args[0]; i++) t = t.args[0];
  return t;
}

/** The element type of a sequence (indexing, `for x in …`): `Vec<T>`, `[T; n]`, `&[T]`, a map's values. */
export function elementOf(t: Ty | undefined): Ty | undefined {
  t = deref(t);
  if (!t) return undefined;
  if (t.t === 'array') return t.elem;
  if (t.t === 'std' && SEQUENCES.has(t.name)) return t.args[0];
  if (t.t === 'std' && (t.name === 'HashMap' || t.name === 'BTreeMap' || t.name === 'IndexMap')) return t.args[1];
  return undefined;
}

/**
 * Reads type expressions into {@link Ty}s.
 *
 * @example
 * ```ts
 * const types = new Types(names);
 * types.of({ k: 'path', segs: ['Box'], args: [{ k: 'path', segs: ['Parser'], args: [] }] }, ctx); // { t: 'std', name: 'Box', args: [adt Parser] }
 * ```
 */
export class Types {
  /** The paths outside types written in a module have there (see `outside`), by the path as written. */
  private readonly origins = new WeakMap<Module, Map<string, readonly string[]>>();

  constructor(readonly names: Names) {}

  of(te: TypeExpr | undefined, ctx: TyCtx, depth = 0): Ty | undefined {
    if (!te || depth > MAX_DEPTH) return undefined;
    switch (te.k) {
      case 'ref': {
        // A raw pointer is no reference: method calls do not see through it (`ptr.as_ref()` is the pointer's own).
        const inner = this.of(te.inner, ctx, depth + 1);
        return te.raw ? { t: 'std', name: RAW_POINTER, args: [inner ?? UNKNOWN_TUPLE_SLOT] } : inner;
      }
      case 'tuple':
        return { t: 'tuple', elems: te.elems.map((e) => this.of(e, ctx, depth + 1) ?? UNKNOWN_TUPLE_SLOT) };
      case 'array': {
        const elem = this.of(te.elem, ctx, depth + 1);
        return elem ? { t: 'array', elem } : { t: 'std', name: SLICE, args: [] };
      }
      case 'bounds': {
        // `impl Iterator<Item = T>`, `Box<dyn Iterator<Item = T>>`: a sequence of T.
        const iter = te.traits.find((b) => b.k === 'path' && b.item && ITERATOR_TRAITS.has(b.segs[b.segs.length - 1]!));
        if (iter?.k === 'path') {
          const elem = this.of(iter.item, ctx, depth + 1);
          return { t: 'std', name: 'Iter', args: elem ? [elem] : [] };
        }
        // `impl FnMut() -> R`, `Box<dyn Fn(&A) -> R>`: a callable.
        const callable = te.traits.map((b) => this.callable(b, ctx, depth + 1)).find((c) => c !== undefined);
        if (callable) return callable;
        const traits = te.traits.flatMap((b) => this.traitRefs(b, ctx));
        return traits.length > 0 ? { t: 'bounds', traits } : this.convertible(te.traits, ctx, depth + 1);
      }
      case 'qualified': {
        // `<T as InputIter>::Item` bounded by a where clause of its own.
        const written =
          te.self.k === 'path' && te.trait.k === 'path' && te.trait.args.length === 0
            ? ctx.generics.get(`<${te.self.segs.join('::')} as ${te.trait.segs.join('::')}>::${te.name}`)
            : undefined;
        const projected = this.projection(this.of(te.self, ctx, depth + 1), te.name, depth + 1);
        // With what the trait declares of it (`type Int: Int`), not instead.
        if (written?.t === 'bounds' && projected?.t === 'bounds')
          return { t: 'bounds', traits: dedupeRefs([...projected.traits, ...written.traits]) };
        if (written && (projected === undefined || projected === CONFLICT)) return written;
        return projected;
      }
      case 'unknown':
        return undefined;
      case 'path': {
        // `fn(A) -> R`: a callable.
        if (te.fnArgs && te.segs.length === 1 && te.segs[0] === 'fn') return this.callable(te, ctx, depth);
        // A trait object written without `dyn` (edition 2015: `Box<Iterator<Item = T>>`): a sequence of T.
        if (
          te.item &&
          ITERATOR_TRAITS.has(te.segs[te.segs.length - 1]!) &&
          this.names.resolvePath(ctx.scope, te.segs, te.global ?? false, 'type')[0]?.t !== 'item'
        ) {
          const elem = this.of(te.item, ctx, depth + 1);
          return { t: 'std', name: 'Iter', args: elem ? [elem] : [] };
        }
        if (te.segs.length === 1) {
          const name = te.segs[0]!;
          if (name === 'Self') return ctx.self;
          if (ctx.generics.has(name)) return ctx.generics.get(name);
        }
        // `Self::Item`, `G::NodeId`: an associated type of a type whose traits or impls say what it is.
        if (te.segs.length === 2 && !te.global && (te.segs[0] === 'Self' || ctx.generics.has(te.segs[0]!)))
          return this.projection(te.segs[0] === 'Self' ? ctx.self : ctx.generics.get(te.segs[0]!), te.segs[1]!, depth + 1);
        const args = () => te.args.map((a) => this.of(a, ctx, depth + 1) ?? UNKNOWN_TUPLE_SLOT);
        const res = this.names.resolvePath(ctx.scope, te.segs, te.global ?? false, 'type');
        const r = res[0];
        if (!r || (res.length > 1 && res.some((x) => x.t !== 'item'))) return r?.t === 'ext' ? this.outside(te, args(), ctx) : undefined;
        if (r.t === 'ext') return this.outside(te, args(), ctx);
        if (r.t !== 'item') return undefined;
        const it = itemOf(r.ref);
        if (it.kind === 'struct' || it.kind === 'enum' || it.kind === 'union') return { t: 'adt', ref: r.ref, args: args() };
        if (it.kind === 'trait') return { t: 'bounds', traits: [r.ref] };
        if (it.kind === 'type' && it.aliased) {
          // An alias: its target read where the alias is, its parameters bound to the arguments.
          const generics = new Map<string, Ty | undefined>();
          const a = args();
          const scope = this.names.itemScope(r.ref);
          (it.generics ?? []).forEach((g, k) =>
            generics.set(g.name, a[k] ?? (g.default ? this.of(g.default, { scope, generics: new Map() }, depth + 1) : undefined)),
          );
          return this.of(it.aliased, { scope, generics }, depth + 1);
        }
        return undefined;
      }
    }
  }

  /** A type from outside the program written `te` here, with the path its `use` names. */
  private outside(te: TypeExpr & { k: 'path' }, args: Ty[], ctx: TyCtx): Ty {
    let byPath = this.origins.get(ctx.scope.mod);
    if (!byPath) this.origins.set(ctx.scope.mod, (byPath = new Map<string, readonly string[]>()));
    const key = te.segs.join('::');
    let origin = byPath.get(key);
    if (!origin) byPath.set(key, (origin = this.names.outsidePath(ctx.scope, te)));
    // A `use` that renames it (`result::Result as StdResult`): the type is the one it names.
    return outsideType(knownAs(origin, te.segs), args, origin.length > 1 ? origin : undefined);
  }

  /**
   * The associated type `name` of `base`: the `type Name = …` of an impl of its type, or, for a
   * bound (a generic parameter, `Self` in a trait), what the trait declares of it (its default,
   * else its own bounds: `type Iter: Iterator<Item = Self::Node>`).
   */
  projection(base: Ty | undefined, name: string, depth: number, onlyOf?: ReadonlySet<string>): Ty | undefined {
    // `O::Target` of a parameter that is a pointer by its bounds.
    if (base?.t === 'std' && base.name === DEREF_PARAM && name === 'Target') return base.args[0];
    const b = deref(base);
    if (!b || depth > MAX_DEPTH) return undefined;
    if (b.t === 'std') return name === 'Item' && b.name === 'Iter' ? b.args[0] : undefined;
    if (b.t === 'bounds') {
      // A where clause of the function on it (`<T as InputIter>::Item: AsChar`), with what the trait declares.
      const bounded = b.assoc?.[name];
      const declared = this.declaredAssociated(b, name, depth);
      if (bounded?.t === 'bounds' && declared?.t === 'bounds')
        return { t: 'bounds', traits: dedupeRefs([...declared.traits, ...bounded.traits]) };
      return declared ?? bounded;
    }
    if (b.t === 'adt') {
      for (const impl of this.names.impls().byType.get(refKey(b.ref)) ?? []) {
        // Of the impls of some traits only when asked (the iterators': the `Item` of `impl IntoIterator
        // for &Buf` or of a program's `impl Parser for Buf` is no `Buf`'s to iterate).
        const implTrait = itemOf(impl.ref).implTrait;
        if (onlyOf !== undefined && (implTrait?.k !== 'path' || !onlyOf.has(implTrait.segs[implTrait.segs.length - 1]!))) continue;
        const member = this.names.membersNamed(impl.ref, name).find((r) => itemOf(r).kind === 'type');
        const it = member ? itemOf(member) : undefined;
        if (!member || !it?.aliased) continue;
        const ctx = this.fnCtx(member, b);
        return this.of(it.aliased, ctx, depth + 1);
      }
    }
    return undefined;
  }

  /**
   * What an operator gives on a type of the program through the program's impl of std's operator
   * trait (`a - b` with `impl Sub<OffsetDateTime> for OffsetDateTime { type Output = Duration; }`):
   * of the impls of `trait` for `left`'s type, those whose right-hand side (`Self` when the trait
   * is written without one) can be `right`'s type; their `Output` when they agree on one.
   */
  operatorOutput(left: Ty & { t: 'adt' }, trait: string, right: Ty | undefined): Ty | undefined {
    const rightHead = headKey(right);
    let out: Ty | undefined;
    for (const impl of this.names.impls().byType.get(refKey(left.ref)) ?? []) {
      const implTrait = itemOf(impl.ref).implTrait;
      if (impl.trait?.t !== 'ext' || implTrait?.k !== 'path' || implTrait.segs[implTrait.segs.length - 1] !== trait) continue;
      const member = this.names.membersNamed(impl.ref, 'Output').find((r) => itemOf(r).kind === 'type');
      const aliased = member ? itemOf(member).aliased : undefined;
      if (!member || !aliased) continue;
      const ctx = this.fnCtx(member, left);
      const rhsHead = headKey(implTrait.args[0] ? this.of(implTrait.args[0], ctx) : left);
      // An impl for another right-hand side (`Sub<Duration>` when `right` is an `OffsetDateTime`).
      if (rightHead !== undefined && rhsHead !== undefined && rhsHead !== rightHead) continue;
      const given = this.of(aliased, ctx);
      const key = headKey(given);
      if (!given || key === undefined || (out !== undefined && headKey(out) !== key)) return undefined;
      out ??= given;
    }
    return out;
  }

  /**
   * Where method lookup goes once a type of the program has no method of the name: the `Target`
   * of its `impl Deref for T` (std's `Deref`, written in the program: `counter::Sender<C>` →
   * `C`), with the impl's parameters bound by the type's arguments. Undefined without one.
   */
  derefTarget(base: Ty | undefined): Ty | undefined {
    const b = deref(base);
    if (!b || b.t !== 'adt') return undefined;
    for (const impl of this.names.impls().byType.get(refKey(b.ref)) ?? []) {
      const trait = itemOf(impl.ref).implTrait;
      if (impl.trait?.t !== 'ext' || trait?.k !== 'path' || trait.segs[trait.segs.length - 1] !== 'Deref') continue;
      const member = this.names.membersNamed(impl.ref, 'Target').find((r) => itemOf(r).kind === 'type');
      const it = member ? itemOf(member) : undefined;
      if (!member || !it?.aliased) continue;
      return this.of(it.aliased, this.fnCtx(member, b), 1);
    }
    return undefined;
  }

  /**
   * What indexing a type of the program gives: the `Output` of its `impl Index<…>` (std's trait,
   * written in the program: `cmd[id]` on a `Command` with `impl Index<&Id> for Command`).
   */
  indexOutput(base: Ty | undefined): Ty | undefined {
    const b = deref(base);
    if (!b || b.t !== 'adt') return undefined;
    // Several `impl Index` (`Index<usize>` and `Index<&str>`) must give one `Output`.
    let out: Ty | undefined;
    for (const impl of this.names.impls().byType.get(refKey(b.ref)) ?? []) {
      const trait = itemOf(impl.ref).implTrait;
      if (impl.trait?.t !== 'ext' || trait?.k !== 'path' || trait.segs[trait.segs.length - 1] !== 'Index') continue;
      const member = this.names.membersNamed(impl.ref, 'Output').find((r) => itemOf(r).kind === 'type');
      const it = member ? itemOf(member) : undefined;
      const t = member && it?.aliased ? this.of(it.aliased, this.fnCtx(member, b), 1) : undefined;
      if (!t || (out && JSON.stringify(tyKey(out)) !== JSON.stringify(tyKey(t)))) return undefined;
      out = t;
    }
    return out;
  }

  /** The traits of the program a bound names (`Read` of std gives none). */
  traitRefs(b: TypeExpr, ctx: TyCtx): ItemRef[] {
    const out: ItemRef[] = [];
    for (const r of this.names.typePath(ctx.scope, b)) if (r.t === 'item' && itemOf(r.ref).kind === 'trait') out.push(r.ref);
    return out;
  }

  /**
   * The context of a function's signature: its module, its generic parameters (and those of the
   * impl or trait around it) as their bounds, `Self`, and the impl's parameters bound by the
   * receiver's type arguments when the receiver is known.
   */
  fnCtx(fn: ItemRef, receiver?: Ty): TyCtx {
    const it = itemOf(fn);
    const scope = this.names.itemScope(fn);
    const ctx: TyCtx = { scope, generics: new Map() };
    const container = it.parent !== -1 ? fn.file.items[it.parent] : undefined;
    if (container && (container.kind === 'impl' || container.kind === 'trait')) {
      const cref: ItemRef = { file: fn.file, i: it.parent, mod: fn.mod };
      this.bindGenerics(container, ctx);
      if (container.kind === 'trait') {
        ctx.self = receiver ?? { t: 'bounds', traits: [cref] };
        // A receiver bounded by the trait with arguments (`f: F` with `F: Parser<I, O, E>`) gives them; another, its impl's.
        const written = receiver?.t === 'bounds' ? receiver.traitArgs?.[refKey(cref)] : undefined;
        if (written)
          container.generics?.forEach((g, k) => {
            if (written[k]) ctx.generics.set(g.name, written[k]);
          });
        else if (receiver && container.generics) this.bindTraitArgs(cref, container, receiver, ctx);
      } else {
        // impl<T> Foo<T>: T is the receiver's argument where it sits in the self type.
        const selfTe = container.implSelf;
        if (receiver?.t === 'adt' && selfTe?.k === 'path')
          selfTe.args.forEach((a, k) => {
            if (a.k === 'path' && a.segs.length === 1 && ctx.generics.has(a.segs[0]!)) ctx.generics.set(a.segs[0]!, receiver.args[k]);
          });
        ctx.self = receiver ?? this.of(selfTe, ctx);
        // `impl<T: FromFd> FromFilelike for T`: `Self` is also what the impl implements.
        const blanket = selfTe?.k === 'path' && selfTe.segs.length === 1 && container.generics?.some((g) => g.name === selfTe.segs[0]);
        if (!receiver && blanket && container.implTrait && (ctx.self === undefined || ctx.self.t === 'bounds')) {
          const implemented = this.traitRefs(container.implTrait, ctx);
          if (implemented.length > 0) ctx.self = { t: 'bounds', traits: [...(ctx.self?.traits ?? []), ...implemented] };
        }
      }
    }
    // A method's where clause on its impl's parameter (`fn erase_owner(self) where O: IntoErased`) adds to the impl's bounds.
    const outer = it.generics?.some((g) => ctx.generics.has(g.name))
      ? new Map(it.generics.filter((g) => ctx.generics.has(g.name)).map((g) => [g.name, ctx.generics.get(g.name)]))
      : undefined;
    this.bindGenerics(it, ctx);
    let rebound = false;
    for (const [name, before] of outer ?? []) {
      const now = ctx.generics.get(name);
      if (now === before) continue;
      rebound = true;
      if (before?.t === 'bounds' && now?.t === 'bounds')
        ctx.generics.set(name, { ...before, ...now, traits: dedupeRefs([...before.traits, ...now.traits]) });
      else if (now === undefined) ctx.generics.set(name, before);
    }
    // `Self` (`OwningRef<O, T>`) then holds the parameter so bound: `self.owner.into_erased()`.
    if (rebound && !receiver && container?.kind === 'impl' && ctx.self?.t === 'adt' && container.implSelf)
      ctx.self = this.of(container.implSelf, ctx) ?? ctx.self;
    return ctx;
  }

  /**
   * A trait's parameters as the receiver's impl of it gives them: `impl<T> ReadError<T> for
   * Result<T, ()>` called on a `Result<&Header, ()>` makes the trait's `T` a `&Header`. Each of
   * the program's impls of the trait for the receiver's type whose self type can be the
   * receiver's (its arguments that are not parameters name the receiver's) binds its parameters
   * by the receiver's arguments; the trait's parameters are bound only when they all agree
   * (`impl Conv<A> for S` beside `impl Conv<B> for S`: not known).
   */
  private bindTraitArgs(trait: ItemRef, traitItem: Item, receiver: Ty, ctx: TyCtx): void {
    const d = deref(receiver);
    const key = d?.t === 'adt' ? refKey(d.ref) : d?.t === 'std' ? `std:${d.name}` : d?.t === 'array' ? `std:${SLICE}` : undefined;
    if (!d || !key || !traitItem.generics) return;
    const traitKey = refKey(trait);
    let agreed: (Ty | undefined)[] | undefined;
    let agreedKey: string | undefined;
    for (const impl of this.names.impls().byType.get(key) ?? []) {
      if (impl.trait?.t !== 'item' || refKey(impl.trait.ref) !== traitKey) continue;
      const it = itemOf(impl.ref);
      const written = it.implTrait;
      if (written?.k !== 'path') return;
      const implCtx: TyCtx = { scope: this.names.itemScope(impl.ref), generics: new Map() };
      this.bindGenerics(it, implCtx);
      let self = it.implSelf;
      while (self?.k === 'ref') self = self.inner;
      const param = (te: TypeExpr | undefined) => {
        while (te?.k === 'ref') te = te.inner;
        return te?.k === 'path' && te.segs.length === 1 && implCtx.generics.has(te.segs[0]!) ? te.segs[0]! : undefined;
      };
      let fits = true;
      if (self?.k === 'path' && (d.t === 'adt' || d.t === 'std'))
        self.args.forEach((a, k) => {
          const name = param(a);
          if (name) {
            if (d.args[k]) implCtx.generics.set(name, d.args[k]);
          } else if (!sameHead(this.of(a, implCtx), d.args[k])) fits = false;
        });
      else if (self?.k === 'array' && d.t === 'array') {
        const name = param(self.elem);
        if (name) implCtx.generics.set(name, d.elem);
        else if (!sameHead(this.of(self.elem, implCtx), d.elem)) fits = false;
      }
      if (!fits) continue;
      const args = traitItem.generics.map((_, k) => this.of(written.args[k], implCtx));
      const argsKey = JSON.stringify(args.map(tyKey));
      if (agreedKey === undefined) {
        agreed = args;
        agreedKey = argsKey;
      } else if (agreedKey !== argsKey) return;
    }
    traitItem.generics.forEach((g, k) => {
      const t = agreed?.[k];
      if (t) ctx.generics.set(g.name, t);
    });
  }

  /** What the traits of bounds `b` declare of their associated type `name` (`type Item: Foo`, `type Out = u8`). */
  private declaredAssociated(b: Ty & { t: 'bounds' }, name: string, depth: number): Ty | undefined {
    for (const trait of b.traits)
      for (const t of this.names.traitClosure(trait)) {
        const member = this.names.membersNamed(t, name).find((r) => itemOf(r).kind === 'type');
        if (!member) continue;
        const it = itemOf(member);
        const ctx: TyCtx = { scope: this.names.itemScope(member), generics: new Map(), self: b };
        if (it.aliased) return this.of(it.aliased, ctx, depth + 1);
        if (it.supertraits && it.supertraits.length > 0) return this.of({ k: 'bounds', traits: it.supertraits }, ctx, depth + 1);
        return undefined;
      }
    return undefined;
  }

  /**
   * Where clauses on a parameter's associated types (`<T as InputIter>::Item: AsChar`,
   * `I::Item: Display`, read by genericsOf as parameters of those names) go with the parameter:
   * a `Self::Item` the trait's own methods give it is bounded by them.
   */
  private bindAssociated(it: Item, ctx: TyCtx): void {
    for (const [key, ty] of ctx.generics) {
      const a = associatedOf(key);
      if (!a || !ty) continue;
      const { param, name } = a;
      const owner = ctx.generics.get(param);
      const iterator = it.generics
        ?.find((g) => g.name === param)
        ?.bounds.some((b) => b.k === 'path' && ITERATOR_TRAITS.has(b.segs[b.segs.length - 1]!));
      // `I: Iterator, I::Item: Display`: a sequence of that.
      if (iterator && name === 'Item' && (owner === undefined || (owner.t === 'std' && owner.name === 'Iter' && owner.args.length === 0)))
        ctx.generics.set(param, { t: 'std', name: 'Iter', args: [ty] });
      // `P: DerefMut, P::Target: Stream` (`impl<P> Stream for Pin<P>`), `O: StableDeref, O::Target: ToHandle`:
      // a pointer to that (`Target` is `Deref`'s, which outside traits like `StableDeref` extend).
      else if (
        name === 'Target' &&
        (owner === undefined || (owner.t === 'bounds' && owner.traits.length === 0)) &&
        it.generics?.some((g) => g.name === param)
      )
        ctx.generics.set(param, { t: 'std', name: DEREF_PARAM, args: [ty] });
      else if (owner?.t === 'bounds') {
        // Two where clauses on one name (`<T as A>::Item: X, <T as B>::Item: Y`): which one a `Self::Item` is cannot be told.
        // (The same clause met again — an impl's parameters bound once more for its method — is no second one.)
        const before = owner.assoc?.[name];
        const twice =
          before !== undefined && before !== ty && (before === CONFLICT || JSON.stringify(tyKey(before)) !== JSON.stringify(tyKey(ty)));
        ctx.generics.set(param, { ...owner, assoc: { ...owner.assoc, [name]: twice ? CONFLICT : ty } });
      }
    }
  }

  /**
   * A value known by a conversion bound of std's alone (`V: Into<Value>`, `impl AsRef<Path>`):
   * `{ t: 'std', name: CONVERTIBLE, args: [Value] }`, whose `into()` gives a `Value`; undefined
   * when no such bound names a known type.
   */
  private convertible(bounds: readonly TypeExpr[], ctx: TyCtx, depth = 0): Ty | undefined {
    for (const b of bounds) {
      if (b.k !== 'path' || b.args.length !== 1 || !CONVERSIONS[b.segs[b.segs.length - 1]!]) continue;
      if (!this.names.isOutsideBound(ctx.scope, b)) continue;
      const target = this.of(b.args[0], ctx, depth + 1);
      if (target) return { t: 'std', name: CONVERTIBLE, args: [target], path: [b.segs[b.segs.length - 1]!] };
    }
    return undefined;
  }

  /** std's `Deref` or `DerefMut` among a parameter's bounds, if any. */
  private derefBound(bounds: readonly TypeExpr[], ctx: TyCtx): (TypeExpr & { k: 'path' }) | undefined {
    return bounds.find(
      (b): b is TypeExpr & { k: 'path' } =>
        b.k === 'path' && DEREF_TRAITS.has(b.segs[b.segs.length - 1]!) && this.names.isOutsideBound(ctx.scope, b),
    );
  }

  /**
   * A callable (`{ t: 'std', name: CALLABLE, args: [its return type] }`) for a `fn(A) -> R`
   * pointer or an `Fn*(A) -> R` bound; undefined for any other type.
   */
  callable(te: TypeExpr, ctx: TyCtx, depth = 0): Ty | undefined {
    if (te.k !== 'path' || !te.fnArgs) return undefined;
    const last = te.segs[te.segs.length - 1]!;
    if (last !== 'fn' && !FN_TRAITS.has(last)) return undefined;
    const ret = te.fnRet ? this.of(te.fnRet, ctx, depth + 1) : undefined;
    return { t: 'std', name: CALLABLE, args: ret ? [ret] : [] };
  }

  /** Adds an item's generic parameters to a context, each as its bounds (or unknown). */
  bindGenerics(it: Item, ctx: TyCtx): void {
    // `P: FnMut() -> R`: a callable returning `R` as bound here (read once the others are).
    const callables: [string, TypeExpr][] = [];
    for (const g of it.generics ?? []) {
      const fn = fnBound(g.bounds);
      if (fn) callables.push([g.name, fn]);
      const iter = g.bounds.find((b) => b.k === 'path' && b.item && ITERATOR_TRAITS.has(b.segs[b.segs.length - 1]!));
      if (iter?.k === 'path') {
        const elem = this.of(iter.item, ctx);
        ctx.generics.set(g.name, { t: 'std', name: 'Iter', args: elem ? [elem] : [] });
        continue;
      }
      const traits = g.bounds.flatMap((b) => this.traitRefs(b, ctx));
      // `P: Deref<Target = T>`: a pointer to `T`.
      const target = traits.length === 0 ? this.derefBound(g.bounds, ctx)?.target : undefined;
      const pointee = target ? this.of(target, ctx) : undefined;
      if (pointee) {
        ctx.generics.set(g.name, { t: 'std', name: DEREF_PARAM, args: [pointee] });
        continue;
      }
      // Bounds of outside traits, kept when a blanket impl of the program asks for one (`T: Stream` → `StreamExt`).
      const outside = g.bounds.some((b) => this.names.isBlanketOutsideBound(ctx.scope, b))
        ? g.bounds.filter((b) => this.names.isOutsideBound(ctx.scope, b)).map((b) => this.names.outsidePath(ctx.scope, b))
        : [];
      // `I: IntoIterator` (no `Item = …` written, no trait of the program): an iterator of elements not known —
      // unless a where clause bounds another of its associated types (`I::IntoIter: MultiUnzip<F>`: `into_iter()` has those bounds).
      const iterating =
        traits.length === 0 &&
        outside.length === 0 &&
        g.bounds.some(
          (b) => b.k === 'path' && ITERATOR_TRAITS.has(b.segs[b.segs.length - 1]!) && this.names.isOutsideBound(ctx.scope, b),
        ) &&
        !it.generics?.some((o) => {
          const a = associatedOf(o.name);
          return a?.param === g.name && a.name !== 'Item';
        });
      ctx.generics.set(
        g.name,
        traits.length > 0 || outside.length > 0
          ? { t: 'bounds', traits, ...(outside.length > 0 ? { outside } : {}) }
          : iterating
            ? { t: 'std', name: 'Iter', args: [] }
            : this.convertible(g.bounds, ctx),
      );
    }
    this.bindTraitArguments(it, ctx);
    this.bindAssociated(it, ctx);
    for (const [name, fn] of callables) {
      const bound = ctx.generics.get(name);
      const callable = this.callable(fn, ctx);
      if (bound === undefined) ctx.generics.set(name, callable);
      // Bounds a blanket impl also answers (`F: FnMut(&str) -> Out` with `impl<F: FnMut(&str) -> Out> Parser for F`): both.
      else if (bound.t === 'bounds' && callable?.t === 'std' && callable.args[0])
        ctx.generics.set(name, { ...bound, calls: callable.args[0] });
    }
  }

  /**
   * The arguments of the traits an item's parameters are bounded by (`F: Parser<I, O, E>`), read
   * once every parameter is bound: a method of the trait called on an `F` then returns the
   * caller's `I`, `O` and `E` where the trait's signature names its own (see {@link fnCtx}).
   */
  private bindTraitArguments(it: Item, ctx: TyCtx): void {
    for (const g of it.generics ?? []) {
      const bound = ctx.generics.get(g.name);
      if (bound?.t !== 'bounds') continue;
      const traitArgs: Record<string, (Ty | undefined)[]> = {};
      for (const b of g.bounds) {
        if (b.k !== 'path' || b.args.length === 0) continue;
        const args = b.args.map((a) => this.of(a, ctx));
        for (const r of this.traitRefs(b, ctx)) {
          traitArgs[refKey(r)] = args;
          this.supertraitArguments(r, args, traitArgs, 0);
        }
      }
      if (Object.keys(traitArgs).length > 0) ctx.generics.set(g.name, { ...bound, traitArgs });
    }
  }

  /**
   * The arguments `trait`'s supertraits get when it has `args` (`trait Sub<I>: Parser<I, Out>` and
   * `F: Sub<&str>` give `Parser<&str, Out>`), and theirs in turn, into `out` (a trait already
   * there keeps its arguments: those written on the bound come first).
   */
  private supertraitArguments(
    trait: ItemRef,
    args: readonly (Ty | undefined)[],
    out: Record<string, (Ty | undefined)[]>,
    depth: number,
  ): void {
    const it = itemOf(trait);
    if (depth >= MAX_SUPERTRAIT_DEPTH || !it.supertraits?.some((s) => s.k === 'path' && s.args.length > 0)) return;
    const generics = new Map<string, Ty | undefined>();
    it.generics?.forEach((g, k) => generics.set(g.name, args[k]));
    const ctx: TyCtx = { scope: this.names.itemScope(trait), generics };
    for (const s of it.supertraits) {
      if (s.k !== 'path' || s.args.length === 0) continue;
      const sargs = s.args.map((a) => this.of(a, ctx));
      for (const r of this.traitRefs(s, ctx)) {
        const key = refKey(r);
        if (key in out) continue;
        out[key] = sargs;
        this.supertraitArguments(r, sargs, out, depth + 1);
      }
    }
  }

  /** A field of pin-project's projection of `owner` (see {@link PIN_PROJECTION}): `#[pin]` ones are `Pin<…>`. */
  projectedFieldType(owner: Ty & { t: 'adt' }, field: string): Ty | undefined {
    const t = this.fieldType(owner, field);
    const pinned = itemOf(owner.ref).fields?.find((x) => x.name === field)?.pinned === true;
    return t && pinned ? { t: 'std', name: 'Pin', args: [t] } : t;
  }

  /** The declared type of a field of a struct, union or variant (`0` for a tuple field), its parameters bound by `owner`'s arguments. */
  fieldType(owner: Ty & { t: 'adt' }, field: string): Ty | undefined {
    const it = itemOf(owner.ref);
    const f = it.fields?.find((x) => x.name === field);
    if (!f) return undefined;
    const generics = new Map<string, Ty | undefined>();
    // A variant's fields are written with its enum's parameters.
    const params = it.kind === 'variant' ? owner.ref.file.items[it.parent]?.generics : it.generics;
    (params ?? []).forEach((g, k) => generics.set(g.name, owner.args[k]));
    return this.of(f.type, { scope: this.names.itemScope(owner.ref), generics, self: owner });
  }

  /**
   * The type a function returns, `Self` and the impl's parameters read for `receiver`, the
   * function's own type parameters for the types written at the call (`read::<T>()`), when given.
   */
  returnType(fn: ItemRef, receiver?: Ty, explicit?: readonly (Ty | undefined)[]): Ty | undefined {
    const it = itemOf(fn);
    if (!it.ret) return undefined;
    const ctx = this.fnCtx(fn, receiver);
    if (explicit)
      it.generics?.forEach((g, k) => {
        const t = explicit[k];
        if (t) ctx.generics.set(g.name, t);
      });
    return this.of(it.ret, ctx);
  }

  /** The declared type of a const or static. */
  valueType(ref: ItemRef): Ty | undefined {
    const it = itemOf(ref);
    return it.ret ? this.of(it.ret, { scope: this.names.itemScope(ref), generics: new Map() }) : undefined;
  }

  key(t: Ty): string {
    return t.t === 'adt' ? refKey(t.ref) : t.t;
  }
}

/**
 * A type from outside the program, named by the last segment of its path; the path as written
 * is kept when it has a module (`io::Error`), so that the program's impls for another type of
 * that name (`impl Ext for fmt::Error`) are not taken for its; `origin`, the path its `use` names, when known.
 */
export function outsideType(segs: readonly string[], args: Ty[] = [], origin?: readonly string[]): Ty {
  return { t: 'std', name: segs[segs.length - 1]!, args, ...(segs.length > 1 ? { path: segs } : {}), ...(origin ? { origin } : {}) };
}

/**
 * The parameter and associated type a where clause names, as genericsOf keeps it
 * (`I::IntoIter`, `<T as InputIter>::Item`: `{ param: 'T', name: 'Item' }`), or undefined.
 */
function associatedOf(key: string): { param: string; name: string } | undefined {
  const m = /^<\s*(\w+)\s+as\s+[\w:]+\s*>::(\w+)$/.exec(key) ?? /^(\w+)::(\w+)$/.exec(key);
  return m ? { param: m[1]!, name: m[2]! } : undefined;
}

/** A type's identity for comparing two readings of it (items by key, not by object). */
function tyKey(t: Ty | undefined): unknown {
  if (!t) return null;
  switch (t.t) {
    case 'adt':
      return ['adt', refKey(t.ref), t.args.map(tyKey)];
    case 'bounds':
      return ['bounds', t.traits.map(refKey)];
    case 'std':
      return ['std', t.name, t.args.map(tyKey)];
    case 'tuple':
      return ['tuple', t.elems.map(tyKey)];
    case 'array':
      return ['array', tyKey(t.elem)];
  }
}

/** The head of a type (its item, or std's type name), for telling operator impls apart; undefined when not known. */
function headKey(t: Ty | undefined): string | undefined {
  const d = deref(t);
  if (d?.t === 'adt') return `adt:${refKey(d.ref)}`;
  if (d?.t === 'std' && d.name !== '?' && !d.name.startsWith('#')) return `std:${d.name}`;
  return undefined;
}

/** Whether a type written in an impl's self type can be the receiver's argument: the same item or std type; anything unknown can. */
function sameHead(written: Ty | undefined, actual: Ty | undefined): boolean {
  if (!written || !actual || written.t === 'bounds' || actual.t === 'bounds') return true;
  if (written.t !== actual.t) return written.t === 'std' && written.name === '?' ? true : actual.t === 'std' && actual.name === '?';
  if (written.t === 'adt' && actual.t === 'adt') return refKey(written.ref) === refKey(actual.ref);
  if (written.t === 'std' && actual.t === 'std') return written.name === actual.name || written.name === '?' || actual.name === '?';
  return true;
}

/** A tuple slot or argument whose type is not known. */
const UNKNOWN_TUPLE_SLOT: Ty = { t: 'std', name: '?', args: [] };
