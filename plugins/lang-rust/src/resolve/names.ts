/**
 * Name resolution over the module trees: what a path means in a scope (`crate::a::B`,
 * `super::f`, a name a `use` or a glob brings in, an extern crate of the repository), the
 * associated items of a type through its impls, and the methods a type has. Never guesses: a
 * name that does not resolve gives nothing, a name outside the repository gives `ext`.
 */
import { type FileIR, type GenericParam, type Item, PRIMITIVE_TYPES, type TypeExpr, type UseIR } from '../syntax/file-ir.js';
import type { Module, Program } from './program.js';
import { isActive } from '../crates/cfg.js';
import { outsideTraitMethods, stdTypeTraits } from './outside-traits.js';
import { SLICE } from './types.js';

/** The impl index's key prefix of a trait object's inherent impls (before the trait's {@link refKey}). */
const DYN_KEY = 'dyn:';

/** Items whose body can declare items local to it: functions, and consts and statics whose value is a block. */
const LOCAL_SCOPES: ReadonlySet<string> = new Set(['fn', 'const', 'static']);

/** An item of the program: a file's item and the module it lives in. */
export interface ItemRef {
  file: FileIR;
  i: number;
  mod: Module;
}

/** What a name means. */
export type Res = { t: 'item'; ref: ItemRef } | { t: 'mod'; m: Module } | { t: 'ext' };

/** The namespace a path position is looked up in. */
export type Ns = 'type' | 'value' | 'macro';

/** Where a name is looked up: a module, and inside a function its local items. */
export interface Scope {
  mod: Module;
  /** The innermost function around (its local items and those of the functions around it). */
  fn?: number;
}

/** An impl block and what its self type and trait resolved to. */
export interface ImplRef {
  ref: ItemRef;
  /** The trait, when a trait impl: a trait of the program, or `ext` (std's `Display`). */
  trait?: Res;
  /** For an impl for a type from outside the program, that type's path (what a renaming `use` names: `Child` of `process::Child as StdChild`). */
  outsideSelf?: readonly string[];
}

const TYPE_KINDS = new Set(['struct', 'enum', 'union', 'trait', 'type']);
/** Path segments that name a module relative to where they are written, in every edition. */
const PATH_KEYWORDS = new Set(['crate', '$crate', 'self', 'super', 'Self']);
const VALUE_KINDS = new Set(['fn', 'const', 'static', 'struct']);
/** Crates outside any repository: their paths are external. */
const SYSROOT_CRATES = new Set(['std', 'core', 'alloc', 'proc_macro', 'test']);
/** Names every module sees from the standard prelude (and primitive types). */
const PRELUDE = new Set([
  'Option',
  'Some',
  'None',
  'Result',
  'Ok',
  'Err',
  'Vec',
  'String',
  'Box',
  'ToString',
  'ToOwned',
  'Clone',
  'Copy',
  'Send',
  'Sync',
  'Sized',
  'Unpin',
  'Drop',
  'Fn',
  'FnMut',
  'FnOnce',
  'Default',
  'Eq',
  'PartialEq',
  'Ord',
  'PartialOrd',
  'Iterator',
  'IntoIterator',
  'Extend',
  'DoubleEndedIterator',
  'ExactSizeIterator',
  'AsRef',
  'AsMut',
  'Into',
  'From',
  'TryFrom',
  'TryInto',
  'FromIterator',
  'drop',
  'Debug',
  'Hash',
  ...PRIMITIVE_TYPES,
]);

export const itemOf = (r: ItemRef): Item => r.file.items[r.i]!;
export const refKey = (r: ItemRef): string => `${r.file.path}#${r.i}`;

/**
 * @example
 * ```ts
 * const names = new Names(program);
 * names.resolvePath({ mod }, ['crate', 'net', 'connect'], false, 'value'); // [{ t: 'item', ref }]
 * ```
 */
export class Names {
  private readonly members = new Map<Module, Map<string, ItemRef[]>>();
  private readonly useMemo = new Map<UseIR, Res[] | null>();
  private implIndex: { byType: Map<string, ImplRef[]>; blanket: ImplRef[] } | undefined;
  private readonly moduleOfItem = new Map<string, Module>();

  constructor(readonly program: Program) {}

  /** The module an item of `file` lives in (the innermost inline module around it, else the file's module). */
  moduleFor(file: FileIR, i: number): Module | undefined {
    const fileMod = this.program.modulesOf(file.path)[0];
    if (!fileMod) return undefined;
    const chain: number[] = [];
    for (let p = file.items[i]?.parent ?? -1; p !== -1; p = file.items[p]!.parent) if (file.items[p]!.kind === 'mod') chain.unshift(p);
    let m = fileMod;
    for (const p of chain) {
      const child = m.children.get(file.items[p]!.name);
      // The cfg twin of a module the build takes (`#[cfg(not(feature = "x"))] mod imp { … }`): in no module.
      if (!child || child.item !== p) return undefined;
      m = child;
    }
    return m;
  }

  /** The scope of the body of function `fn` in `file`. */
  scopeOf(file: FileIR, fn: number): Scope | undefined {
    const mod = this.moduleFor(file, fn);
    return mod ? { mod, fn } : undefined;
  }

  /** The scope an item's own signature is read in (its module; its function for local items). */
  itemScope(ref: ItemRef): Scope {
    const it = itemOf(ref);
    if (!it.local) return { mod: ref.mod };
    let p = it.parent;
    // A function, or a `const _: () = { … }` whose block holds items.
    while (p !== -1 && !LOCAL_SCOPES.has(ref.file.items[p]!.kind)) p = ref.file.items[p]!.parent;
    return p === -1 ? { mod: ref.mod } : { mod: ref.mod, fn: p };
  }

  /** Items declared directly in a module (not in impls or functions), by name. */
  private membersOf(m: Module): Map<string, ItemRef[]> {
    let out = this.members.get(m);
    if (out) return out;
    out = new Map();
    for (const i of this.childrenOf(m.file).get(m.item) ?? []) {
      const it = m.file.items[i]!;
      if (it.local || it.kind === 'impl' || it.kind === 'field' || it.kind === 'variant') continue;
      const list = out.get(it.name) ?? [];
      list.push({ file: m.file, i, mod: m });
      out.set(it.name, list);
    }
    this.members.set(m, out);
    return out;
  }

  private nsMatch(ref: ItemRef, ns: Ns): boolean {
    const k = itemOf(ref).kind;
    if (ns === 'macro') return k === 'macro';
    if (ns === 'type') return TYPE_KINDS.has(k) || k === 'mod';
    return VALUE_KINDS.has(k);
  }

  /**
   * What `name` means inside module `m` as seen from elsewhere (`m::name`): its items, its
   * submodules, and what its `use`s and globs bring in.
   */
  memberOf(m: Module, name: string, ns: Ns, seen = new Set<Module>()): Res[] {
    if (seen.has(m)) return [];
    seen.add(m);
    const out: Res[] = [];
    // Items and submodules a default build leaves out lose to any other binding of the name.
    const inactive: Res[] = [];
    if (ns === 'type') {
      const child = m.children.get(name);
      if (child) (child.active === false ? inactive : out).push({ t: 'mod', m: child });
    }
    for (const r of preferActive((this.membersOf(m).get(name) ?? []).filter((r) => this.nsMatch(r, ns) && itemOf(r).kind !== 'mod')))
      (isActive(itemOf(r).attrs, m.crate.features) === false ? inactive : out).push({ t: 'item', ref: r });
    if (ns === 'macro' && out.length === 0) {
      // `#[macro_export]` macros live at the crate root; textual scoping makes earlier macros visible everywhere after.
      for (const r of preferActive(this.macrosOfCrate(m).filter((r) => itemOf(r).name === name))) out.push({ t: 'item', ref: r });
    }
    if (out.length > 0) return this.withUseTwins(m, name, ns, out);
    const rest = this.boundElsewhere(m, name, ns, seen);
    return rest.length > 0 || inactive.length === 0 ? rest : inactive;
  }

  /**
   * An item and a named `use` of one name in one module cannot both be compiled (E0255): they
   * are cfg twins (`#[cfg(has_atomics)] use std::sync::atomic::AtomicUsize;` beside
   * `#[cfg(not(has_atomics))] struct AtomicUsize`, the flag set by a build script). When no
   * item is known to be compiled, the `use` may be the binding the build takes: a `use` known
   * to be compiled wins; one whose cfg cannot be known leaves the name unresolved (nothing is
   * guessed: "outside" would beat the items, see {@link dedupe}). `items` are the module's own
   * bindings of the name.
   */
  private withUseTwins(m: Module, name: string, ns: Ns, items: Res[]): Res[] {
    const uses = this.moduleUses(m).named.get(name);
    if (!uses) return items;
    // A submodule counts as compiled unless its cfg leaves it out: a module and a `use` of one name are rare.
    const known = (r: Res) =>
      r.t === 'mod' ? r.m.active !== false : r.t === 'item' && isActive(itemOf(r.ref).attrs, m.crate.features) === true;
    if (items.some(known)) return items;
    const bound: Res[] = [];
    let compiled = false;
    for (const u of uses) {
      const res = this.resolveUse(u, m).filter((r) => this.resMatches(r, ns));
      if (res.length === 0) continue;
      bound.push(...res);
      if (isActive(u.cfg, m.crate.features) === true) compiled = true;
    }
    if (bound.length === 0) return items;
    return compiled ? dedupe(bound) : [];
  }

  /** What the `use`s and globs of module `m` bind `name` to. */
  private boundElsewhere(m: Module, name: string, ns: Ns, seen: Set<Module>): Res[] {
    const out: Res[] = [];
    const uses = this.moduleUses(m);
    for (const u of uses.named.get(name) ?? []) out.push(...this.resolveUse(u, m).filter((r) => this.resMatches(r, ns)));
    if (out.length > 0) return out;
    for (const u of uses.globs) {
      if (this.globsInProgress.has(u)) continue;
      for (const target of this.globTargets(u, m)) {
        if (target.t === 'mod') out.push(...this.memberOf(target.m, name, ns, seen));
        else if (target.t === 'item' && itemOf(target.ref).kind === 'enum' && ns === 'value')
          out.push(...this.variantsNamed(target.ref, name));
        else if (target.t === 'ext') out.push({ t: 'ext' });
      }
      if (out.some((r) => r.t !== 'ext')) return out.filter((r) => r.t !== 'ext');
    }
    return dedupe(out);
  }

  private readonly macroMemo = new Map<string, ItemRef[]>();
  private macrosOfCrate(m: Module): ItemRef[] {
    const key = m.crate.key;
    let out = this.macroMemo.get(key);
    if (out) return out;
    out = [];
    for (const mod of this.program.modules) {
      if (mod.crate.key !== key || mod.item !== -1) continue;
      mod.file.items.forEach((it, i) => {
        if (it.kind === 'macro') out.push({ file: mod.file, i, mod });
      });
    }
    this.macroMemo.set(key, out);
    return out;
  }

  private resMatches(r: Res, ns: Ns): boolean {
    if (r.t === 'ext') return true;
    if (r.t === 'mod') return ns === 'type';
    return this.nsMatch(r.ref, ns) || (ns === 'value' && itemOf(r.ref).kind === 'variant');
  }

  private variantsNamed(e: ItemRef, name: string): Res[] {
    const out: Res[] = [];
    for (const i of this.childrenOf(e.file).get(e.i) ?? []) {
      const it = e.file.items[i]!;
      if (it.kind === 'variant' && it.name === name) out.push({ t: 'item', ref: { file: e.file, i, mod: e.mod } });
    }
    return out;
  }

  private readonly moduleUsesMemo = new Map<Module, { named: Map<string, UseIR[]>; globs: UseIR[] }>();

  /** The module-level `use`s of a module: by the name they bind, and its globs. */
  private moduleUses(m: Module): { named: Map<string, UseIR[]>; globs: UseIR[] } {
    let out = this.moduleUsesMemo.get(m);
    if (out) return out;
    out = { named: new Map(), globs: [] };
    for (const [u, scope] of this.usesIn(m)) {
      if (scope !== -1) continue;
      if (u.glob) out.globs.push(u);
      else if (!u.underscore && u.alias !== undefined) {
        const list = out.named.get(u.alias);
        if (list) list.push(u);
        else out.named.set(u.alias, [u]);
      }
    }
    this.moduleUsesMemo.set(m, out);
    return out;
  }

  private readonly usesMemo = new Map<Module, [UseIR, number][]>();

  /** The `use` declarations in a module (with the function they are in, -1 for the module itself). */
  private usesIn(m: Module): [UseIR, number][] {
    const known = this.usesMemo.get(m);
    if (known) return known;
    const out: [UseIR, number][] = [];
    this.usesMemo.set(m, out);
    for (const u of m.file.uses) {
      // A `use` a default build leaves out binds nothing (its cfg twin does).
      if (u.cfg && isActive(u.cfg, m.crate.features) === false) continue;
      if (u.scope === m.item) out.push([u, -1]);
      else if (u.scope !== -1 && m.file.items[u.scope]!.kind !== 'mod' && this.enclosingModItem(m.file, u.scope) === m.item)
        out.push([u, u.scope]);
    }
    return out;
  }

  private enclosingModItem(file: FileIR, i: number): number {
    for (let p = i; p !== -1; p = file.items[p]!.parent) if (file.items[p]!.kind === 'mod') return p;
    return -1;
  }

  /** What a `use` binds (every namespace). */
  resolveUse(u: UseIR, m: Module): Res[] {
    const known = this.useMemo.get(u);
    if (known !== undefined) return known ?? [];
    this.useMemo.set(u, null); // a cycle resolves to nothing
    const scope: Scope = u.scope === -1 || m.file.items[u.scope]?.kind === 'mod' ? { mod: m } : { mod: m, fn: u.scope };
    const out: Res[] = [];
    for (const ns of ['type', 'value', 'macro'] as const) out.push(...this.resolvePathNow(scope, u.segs, u.global ?? false, ns, true));
    const result = dedupe(out);
    this.useMemo.set(u, result);
    return result;
  }

  private readonly globsInProgress = new Set<UseIR>();
  private readonly globMemo = new Map<UseIR, Res[]>();

  /** The module or enum a glob `use` names (a glob reached again while its own path resolves gives nothing). */
  private globTargets(u: UseIR, m: Module): Res[] {
    const known = this.globMemo.get(u);
    if (known) return known;
    if (u.segs.length === 0 || this.globsInProgress.has(u)) return [];
    this.globsInProgress.add(u);
    try {
      const out = this.resolvePathNow({ mod: m }, u.segs, u.global ?? false, 'type', true);
      this.globMemo.set(u, out);
      return out;
    } finally {
      this.globsInProgress.delete(u);
    }
  }

  /**
   * What a path means in a scope, its last segment looked up in `ns`.
   *
   * @param inUse the path of a `use`: its first segment is never a local item of a function
   */
  resolvePath(scope: Scope, segs: readonly string[], global: boolean, ns: Ns, inUse = false): Res[] {
    if (segs.length === 0) return [];
    // A path asked for from outside name resolution (a body's, a type's) is answered once per
    // scope: bodies name the same few paths over and over. Paths met while resolving another
    // (a `use`'s, a glob's) are not kept: a cycle among them resolves to nothing part-way.
    if (this.pathDepth > 0) return this.resolvePathNow(scope, segs, global, ns, inUse);
    const key = `${scope.fn ?? ''}\0${ns}${global ? '::' : ''}${inUse ? 'use ' : ''}${segs.join('::')}`;
    let byPath = this.pathMemo.get(scope.mod);
    if (!byPath) this.pathMemo.set(scope.mod, (byPath = new Map<string, Res[]>()));
    let out = byPath.get(key);
    if (!out) byPath.set(key, (out = this.resolvePathNow(scope, segs, global, ns, inUse)));
    return out;
  }

  /** Paths resolved from outside name resolution, by module and then scope, namespace and text. */
  private readonly pathMemo = new Map<Module, Map<string, Res[]>>();
  /** Depth of {@link resolvePath} calls under way. */
  private pathDepth = 0;

  private resolvePathNow(scope: Scope, segs: readonly string[], global: boolean, ns: Ns, inUse: boolean): Res[] {
    this.pathDepth++;
    try {
      return this.resolveSegments(scope, segs, global, ns, inUse);
    } finally {
      this.pathDepth--;
    }
  }

  private resolveSegments(scope: Scope, segs: readonly string[], global: boolean, ns: Ns, inUse: boolean): Res[] {
    if (segs.length === 0) return [];
    let current: Res[];
    const first = segs[0]!;
    const last = segs.length === 1;
    const firstNs: Ns = last ? ns : 'type';
    // Edition 2015: `use a::b` and `::a::b` start at the crate root (where `extern crate`s bind).
    const fromRoot = scope.mod.crate.pkg?.edition === '2015' && (global || (inUse && !PATH_KEYWORDS.has(first)));
    if (fromRoot) current = this.lookup({ mod: this.crateRootOf(scope.mod) }, first, firstNs, true);
    else if (global) current = this.externCrate(scope.mod, first);
    else if (first === 'crate' || first === '$crate') current = [{ t: 'mod', m: this.crateRootOf(scope.mod) }];
    else if (first === 'self') current = [{ t: 'mod', m: scope.mod }];
    else if (first === 'super') current = scope.mod.parent ? [{ t: 'mod', m: scope.mod.parent }] : [];
    else current = this.lookup(scope, first, firstNs, inUse);
    for (let k = 1; k < segs.length && current.length > 0; k++) {
      const seg = segs[k]!;
      const segNs: Ns = k === segs.length - 1 ? ns : 'type';
      const next: Res[] = [];
      for (const r of current) {
        if (r.t === 'ext') next.push(r);
        else if (r.t === 'mod') {
          if (seg === 'super') {
            if (r.m.parent) next.push({ t: 'mod', m: r.m.parent });
          } else if (seg === 'self') next.push(r);
          else next.push(...this.memberOf(r.m, seg, segNs));
        } else {
          const it = itemOf(r.ref);
          if (it.kind === 'enum') {
            const v = this.variantsNamed(r.ref, seg);
            next.push(...(v.length > 0 ? v : this.associated(r.ref, seg)));
          } else if (TYPE_KINDS.has(it.kind)) next.push(...this.associated(r.ref, seg));
        }
      }
      current = dedupe(next);
    }
    return current;
  }

  /** A first path segment: local items of the functions around, the module's names, extern crates, the prelude. */
  lookup(scope: Scope, name: string, ns: Ns, inUse = false): Res[] {
    const m = scope.mod;
    if (scope.fn !== undefined && !inUse) {
      for (let f: number = scope.fn; f !== -1 && m.file.items[f]!.kind !== 'mod'; f = m.file.items[f]!.parent) {
        const locals: ItemRef[] = [];
        for (const i of this.childrenOf(m.file).get(f) ?? []) {
          const it = m.file.items[i]!;
          if (!it.local || it.name !== name || it.kind === 'impl') continue;
          const ref = { file: m.file, i, mod: m };
          if (this.nsMatch(ref, ns)) locals.push(ref);
        }
        const out: Res[] = preferActive(locals).map((ref) => ({ t: 'item', ref }));
        const uses = this.usesOfScope(m.file, f);
        for (const u of uses) if (!u.glob && u.alias === name) out.push(...this.resolveUse(u, m).filter((r) => this.resMatches(r, ns)));
        for (const u of uses) {
          if (!u.glob) continue;
          for (const t of this.globTargets(u, m)) {
            if (t.t === 'mod') out.push(...this.memberOf(t.m, name, ns));
            // `use self::Strategy::*;` in a body: the enum's variants (`Literal(ref s) => …`).
            else if (t.t === 'item' && itemOf(t.ref).kind === 'enum' && ns === 'value') out.push(...this.variantsNamed(t.ref, name));
          }
        }
        if (out.length > 0) return dedupe(out);
      }
    }
    const own = this.memberOf(m, name, ns);
    if (own.length > 0) return own;
    if (ns !== 'value') {
      const crate = this.externCrate(m, name);
      if (crate.length > 0) return crate;
    }
    if (PRELUDE.has(name)) return [{ t: 'ext' }];
    // In a `use`, a first segment that is nothing of the crate's names an extern crate (2018 paths).
    if (inUse && ns === 'type') return [{ t: 'ext' }];
    // A macro defined in a parent module earlier in the text is in scope (textual scoping).
    if (ns === 'macro')
      for (let p = m.parent; p; p = p.parent)
        for (const r of this.membersOf(p).get(name) ?? []) if (itemOf(r).kind === 'macro') return [{ t: 'item', ref: r }];
    return [];
  }

  private readonly scopeUsesMemo = new Map<FileIR, Map<number, UseIR[]>>();

  /** The `use`s of a file written in the body of its item `scope`, in order. */
  private usesOfScope(file: FileIR, scope: number): readonly UseIR[] {
    let byScope = this.scopeUsesMemo.get(file);
    if (!byScope) {
      byScope = new Map();
      for (const u of file.uses) {
        const list = byScope.get(u.scope);
        if (list) list.push(u);
        else byScope.set(u.scope, [u]);
      }
      this.scopeUsesMemo.set(file, byScope);
    }
    return byScope.get(scope) ?? [];
  }

  private externCrate(m: Module, name: string): Res[] {
    const dep = m.crate.deps.get(name);
    if (dep) {
      const root = this.program.crateRoot(dep);
      return root ? [{ t: 'mod', m: root }] : [];
    }
    if (name === m.crate.name && m.crate.kind === 'lib') return [{ t: 'mod', m: this.crateRootOf(m) }];
    if (SYSROOT_CRATES.has(name) || m.crate.externalDeps.has(name)) return [{ t: 'ext' }];
    return [];
  }

  private crateRootOf(m: Module): Module {
    let r = m;
    while (r.parent) r = r.parent;
    return r;
  }

  // ——— impls ———

  /** The impls of every file of the program, by the item their self type resolves to. */
  impls(): { byType: Map<string, ImplRef[]>; blanket: ImplRef[] } {
    if (this.implIndex) return this.implIndex;
    const byType = new Map<string, ImplRef[]>();
    const blanket: ImplRef[] = [];
    this.implIndex = { byType, blanket };
    for (const mod of this.program.modules) {
      if (mod.item !== -1) continue;
      mod.file.items.forEach((it, i) => {
        if (it.kind !== 'impl' || !it.implSelf) return;
        const owner = this.moduleFor(mod.file, i);
        if (!owner) return;
        const ref: ItemRef = { file: mod.file, i, mod: owner };
        const scope = this.itemScope(ref);
        // A trait that does not resolve is still a trait: its methods are not the type's own.
        const trait = it.implTrait ? (this.typePath(scope, it.implTrait, it)[0] ?? { t: 'ext' as const }) : undefined;
        const impl: ImplRef = { ref, ...(trait ? { trait } : {}) };
        let bare = it.implSelf;
        while (bare.k === 'ref') bare = bare.inner;
        // A trait of the program implemented for slices or arrays (`impl<'a> ReadRef<'a> for &'a [u8]`).
        if (bare.k === 'array' && trait?.t === 'item') {
          byType.set(`std:${SLICE}`, [...(byType.get(`std:${SLICE}`) ?? []), impl]);
          return;
        }
        // An inherent impl of a trait object (`impl dyn Subscriber { pub fn is<T>(&self) … }`): by its trait.
        if (bare.k === 'bounds' && !trait) {
          const first = bare.traits[0];
          const t = first ? this.typePath(scope, first, it).find((r) => r.t === 'item' && itemOf(r.ref).kind === 'trait') : undefined;
          if (t?.t === 'item') {
            const key = `${DYN_KEY}${refKey(t.ref)}`;
            byType.set(key, [...(byType.get(key) ?? []), impl]);
          }
          return;
        }
        const self = this.typePath(scope, it.implSelf, it);
        if (self.length === 0 && isGenericParam(it.implSelf, it)) {
          blanket.push(impl);
          return;
        }
        for (const r of self) {
          if (r.t === 'ext') {
            // A trait of the program implemented for a type from outside it (`impl Ext for str`).
            let te = it.implSelf;
            while (te.k === 'ref') te = te.inner;
            if (te.k === 'path' && trait?.t === 'item') {
              // Keyed as Types names the type: by what a renaming `use` names (`Child as StdChild`).
              const segs = knownAs(this.outsidePath(scope, te), te.segs);
              const key = `std:${segs[segs.length - 1]}`;
              byType.set(key, [...(byType.get(key) ?? []), { ...impl, outsideSelf: segs }]);
            }
            continue;
          }
          if (r.t !== 'item') continue;
          const target = this.unalias(r.ref);
          if (!target) continue;
          const key = refKey(target);
          const list = byType.get(key) ?? [];
          list.push(impl);
          byType.set(key, list);
        }
      });
    }
    return this.implIndex;
  }

  /** A type alias followed to the struct, enum, union or trait it names (within the program). */
  unalias(ref: ItemRef, depth = 0): ItemRef | undefined {
    const it = itemOf(ref);
    if (it.kind !== 'type') return ref;
    if (!it.aliased || depth > 8 || (it.parent !== -1 && ref.file.items[it.parent]!.kind !== 'mod' && !it.local)) return undefined;
    const r = this.typePath(this.itemScope(ref), it.aliased, it)[0];
    return r?.t === 'item' ? this.unalias(r.ref, depth + 1) : undefined;
  }

  /** What a path type names (`a::B<T>` → B), skipping references; the item's generics are not names. */
  typePath(scope: Scope, t: TypeExpr, generic?: Item): Res[] {
    while (t.k === 'ref') t = t.inner;
    if (t.k !== 'path') return [];
    if (t.segs.length === 1 && generic?.generics?.some((g) => g.name === t.segs[0])) return [];
    return this.resolvePath(scope, t.segs, t.global ?? false, 'type');
  }

  private readonly memberMemo = new Map<string, Map<string, ItemRef[]>>();
  private readonly childMemo = new Map<FileIR, Map<number, number[]>>();

  /** The items of a file by the index of their parent (one pass per file). */
  private childrenOf(file: FileIR): Map<number, number[]> {
    let out = this.childMemo.get(file);
    if (out) return out;
    out = new Map();
    file.items.forEach((it, i) => {
      const list = out.get(it.parent);
      if (list) list.push(i);
      else out.set(it.parent, [i]);
    });
    this.childMemo.set(file, out);
    return out;
  }

  /** Members of a trait or an impl, by name (of cfg twins, those a default build compiles). */
  membersNamed(container: ItemRef, name: string): ItemRef[] {
    const key = refKey(container);
    let byName = this.memberMemo.get(key);
    if (!byName) {
      byName = new Map();
      this.memberMemo.set(key, byName);
      for (const i of this.childrenOf(container.file).get(container.i) ?? []) {
        const it = container.file.items[i]!;
        if (it.kind === 'field') continue;
        const list = byName.get(it.name) ?? [];
        list.push({ file: container.file, i, mod: container.mod });
        byName.set(it.name, list);
      }
      // cfg twins of one member (`#[cfg(not(test))] fn visit_u64(…) { … }` beside `#[cfg(test)] fn visit_u64(…);`): the compiled one.
      for (const [n, list] of byName) if (list.length > 1) byName.set(n, preferActive(list));
    }
    return byName.get(name) ?? [];
  }

  private readonly closureMemo = new Map<string, ItemRef[]>();

  /** A trait and its supertraits of the program (each once). */
  traitClosure(trait: ItemRef, out?: Map<string, ItemRef>): ItemRef[] {
    const key = refKey(trait);
    if (!out) {
      let closure = this.closureMemo.get(key);
      if (!closure) this.closureMemo.set(key, (closure = this.traitClosure(trait, new Map())));
      return closure;
    }
    if (out.has(key)) return [...out.values()];
    out.set(key, trait);
    const it = itemOf(trait);
    for (const s of it.supertraits ?? []) {
      for (const r of this.typePath(this.itemScope(trait), s))
        if (r.t === 'item' && itemOf(r.ref).kind === 'trait') this.traitClosure(r.ref, out);
    }
    return [...out.values()];
  }

  /**
   * The associated items named `name` of a type (`Type::name`): inherent impl members first,
   * then the trait items of its trait impls (a trait method is its trait's item). A trait's
   * own items for a trait (`Trait::name`).
   */
  associated(type: ItemRef, name: string): Res[] {
    const target = this.unalias(type);
    if (!target) return [];
    const it = itemOf(target);
    if (it.kind === 'trait') {
      for (const t of this.traitClosure(target)) {
        const m = this.membersNamed(t, name);
        if (m.length > 0) return m.map((ref) => ({ t: 'item', ref }));
      }
      return [];
    }
    const found = this.methodsOf(target, name);
    return found.targets.length > 0 ? found.targets.map((ref) => ({ t: 'item', ref })) : found.external ? [{ t: 'ext' }] : [];
  }

  /**
   * The function `name` of a type: an inherent one, else the item of a trait it implements
   * that declares it. `external` when a trait from outside the program may provide it.
   */
  /**
   * Whether the type's impl of a trait from outside the program (`impl io::Write for W`) defines
   * a member of the name: the method call is that trait's, found before any `Deref` target's.
   */
  hasExternalTraitMember(type: ItemRef, name: string): boolean {
    return this.externalTraitMembers(type, name).length > 0;
  }

  /** The members named `name` of the type's impls of traits from outside the program (`impl IntoIterator for WalkDir`'s `into_iter`). */
  externalTraitMembers(type: ItemRef, name: string): ItemRef[] {
    const out: ItemRef[] = [];
    for (const impl of this.impls().byType.get(refKey(type)) ?? [])
      if (impl.trait?.t === 'ext') out.push(...this.membersNamed(impl.ref, name));
    return out;
  }

  methodsOf(type: ItemRef, name: string, depth = 0, receiver = false): { targets: ItemRef[]; external: boolean } {
    const key = `${refKey(type)}\0${name}\0${receiver ? 'r' : ''}${depth > 0 ? 'd' : ''}`;
    let found = this.methodMemo.get(key);
    if (!found) this.methodMemo.set(key, (found = this.methodsOfNow(type, name, depth, receiver)));
    return found;
  }

  private readonly methodMemo = new Map<string, { targets: ItemRef[]; external: boolean }>();

  private methodsOfNow(type: ItemRef, name: string, depth: number, receiver: boolean): { targets: ItemRef[]; external: boolean } {
    const impls = this.impls().byType.get(refKey(type)) ?? [];
    const inherent: ItemRef[] = [];
    // `x.name()` calls a method (a `self` parameter); `Type::name` may name any associated function or const.
    const callable = (r: ItemRef) => {
      const it = itemOf(r);
      return receiver ? it.kind === 'fn' && it.selfParam === true : it.kind === 'fn' || it.kind === 'const';
    };
    for (const impl of impls) if (!impl.trait) inherent.push(...this.membersNamed(impl.ref, name).filter(callable));
    if (inherent.length > 0) return { targets: preferActive(inherent), external: false };
    const fromTraits: ItemRef[] = [];
    let external = false;
    for (const impl of impls) {
      if (!impl.trait) continue;
      if (impl.trait.t === 'ext') {
        external = true;
        continue;
      }
      if (impl.trait.t !== 'item') continue;
      for (const t of this.traitClosure(impl.trait.ref)) fromTraits.push(...this.membersNamed(t, name).filter(callable));
    }
    if (fromTraits.length > 0) return { targets: dedupeRefs(fromTraits), external: false };
    // Blanket impls of the program's traits (`impl<T: Matcher> Ext for T`) whose bounds the type
    // meets, unless the type's impl of an outside trait has the method.
    if (external && (this.hasExternalTraitMember(type, name) || this.outsideImplMethods(type, name))) return { targets: [], external };
    for (const impl of this.impls().blanket) {
      if (impl.trait?.t !== 'item' || !this.meetsBounds(type, impl)) continue;
      const m = this.membersNamed(impl.trait.ref, name).filter(
        (r) => itemOf(r).kind === 'fn' && (!receiver || itemOf(r).selfParam === true),
      );
      if (m.length > 0) fromTraits.push(...m);
    }
    if (fromTraits.length > 0) return { targets: dedupeRefs(fromTraits), external: false };
    return { targets: [], external: external || depth > 0 };
  }

  /**
   * Whether a type meets the bounds of a blanket impl's parameter: every bound is a trait of
   * the program the type has an impl of, or a trait from outside it (`T: Stream`) the type has
   * an impl of written with that name (`impl Stream for FuturesUnordered`, see {@link sameOutsideTrait}).
   */
  private meetsBounds(type: ItemRef, impl: ImplRef): boolean {
    const implemented = new Set<string>();
    const outside: string[][] = [];
    for (const i of this.impls().byType.get(refKey(type)) ?? []) {
      if (i.trait?.t === 'item') for (const t of this.traitClosure(i.trait.ref)) implemented.add(refKey(t));
      else if (i.trait?.t === 'ext' && itemOf(i.ref).implTrait)
        outside.push(this.outsidePath(this.itemScope(i.ref), itemOf(i.ref).implTrait!));
    }
    return this.boundsMet(impl, implemented, outside);
  }

  /** The methods a type has from its impls of known outside traits (see outside-traits.ts): they come before a blanket impl's. */
  private outsideImplMethods(type: ItemRef, name: string): boolean {
    for (const i of this.impls().byType.get(refKey(type)) ?? []) {
      const t = i.trait?.t === 'ext' ? itemOf(i.ref).implTrait : undefined;
      if (t?.k === 'path' && outsideTraitMethods(t.segs[t.segs.length - 1]!)?.has(name)) return true;
    }
    return false;
  }

  /** Whether a blanket impl's parameter bounds are all among `implemented` (trait keys) and `outside` (outside traits' paths). */
  private boundsMet(impl: ImplRef, implemented: ReadonlySet<string>, outside: readonly (readonly string[])[]): boolean {
    const param = blanketParam(itemOf(impl.ref));
    if (!param) return false;
    const scope = this.itemScope(impl.ref);
    return param.bounds.every((b) => {
      const r = this.typePath(scope, b)[0];
      if (r?.t === 'ext') {
        const path = this.outsidePath(scope, b);
        return outside.some((o) => sameOutsideTrait(o, path));
      }
      return r?.t === 'item' && itemOf(r.ref).kind === 'trait' && implemented.has(refKey(r.ref));
    });
  }

  /**
   * The path of a trait from outside the program as its `use` names it (`Write` after
   * `use std::io::Write;` is `std::io::Write`; `io::Write` after `use std::io;` too); the path as
   * written when no `use` of the module binds its first segment (the prelude, a glob).
   */
  outsidePath(scope: Scope, te: TypeExpr): string[] {
    return te.k === 'path' && te.segs.length > 0 ? this.outsidePathOf(scope.mod, te.segs, 0) : [];
  }

  /** See {@link outsidePath}: a path through the program's own modules (`crate::RngCore`, re-exported) is followed to its `use`. */
  private outsidePathOf(m: Module, segs: readonly string[], depth: number): string[] {
    const u = this.moduleUses(m)
      .named.get(segs[0]!)
      ?.find((x) => !x.glob && x.segs.length > 0);
    const path = u ? [...u.segs, ...segs.slice(1)] : [...segs];
    if (!u || depth > 4 || path.length < 2) return path;
    const owner = this.resolvePath({ mod: m }, path.slice(0, -1), u.global === true, 'type', true).find((r) => r.t === 'mod');
    return owner?.t === 'mod' ? this.outsidePathOf(owner.m, path.slice(-1), depth + 1) : path;
  }

  /**
   * Methods named `name` of the program's traits that a blanket impl gives a generic parameter
   * with these bounds (`St: Stream` gets `StreamExt::fuse` from `impl<T: ?Sized + Stream> StreamExt for T`);
   * with `withoutSelf`, its associated functions too (`C::unpack_tid(i)` with `impl<C: Config> CfgPrivate for C`).
   */
  blanketMethods(traits: readonly ItemRef[], outside: readonly (readonly string[])[], name: string, withoutSelf = false): ItemRef[] {
    // The parameter's own bounds come first: a method one of them has (or may have, when not known) is not an extension's.
    for (const o of outside) {
      const methods = outsideTraitMethods(o[o.length - 1] ?? '');
      if (!methods || methods.has(name)) return [];
    }
    const implemented = new Set<string>();
    const seen = new Map<string, ItemRef>();
    for (const t of traits) this.traitClosure(t, seen);
    for (const k of seen.keys()) implemented.add(k);
    const out: ItemRef[] = [];
    for (const impl of this.impls().blanket) {
      if (impl.trait?.t !== 'item' || !this.boundsMet(impl, implemented, outside)) continue;
      out.push(
        ...this.membersNamed(impl.trait.ref, name).filter((r) => itemOf(r).kind === 'fn' && (withoutSelf || itemOf(r).selfParam === true)),
      );
    }
    return dedupeRefs(out);
  }

  /**
   * Methods named `name` that a blanket impl of the program's traits over outside traits gives
   * std's type `typeName` through std's own impls of them (outside-traits.ts `STD_IMPLS`):
   * `impl<T: AsRawFd> AsSock for T` answers `UdpSocket::as_sock`; not a method one of those traits has.
   */
  stdBlanketMethods(typeName: string, name: string): ItemRef[] {
    const outside = stdTypeTraits(typeName);
    return outside.length === 0 ? [] : this.blanketMethods([], outside, name);
  }

  private outsideBoundNames: Set<string> | undefined;

  /**
   * Whether `bound` (written in `scope`) is a trait from outside the program that a blanket impl
   * of one of the program's traits asks of its parameter: a generic parameter keeps such bounds.
   */
  isBlanketOutsideBound(scope: Scope, bound: TypeExpr): boolean {
    if (!this.isOutsideBound(scope, bound)) return false;
    if (!this.outsideBoundNames) {
      this.outsideBoundNames = new Set();
      for (const impl of this.impls().blanket) {
        if (impl.trait?.t !== 'item') continue;
        const scopeOfImpl = this.itemScope(impl.ref);
        for (const b of blanketParam(itemOf(impl.ref))?.bounds ?? [])
          if (b.k === 'path' && this.typePath(scopeOfImpl, b)[0]?.t === 'ext') this.outsideBoundNames.add(b.segs[b.segs.length - 1]!);
      }
    }
    return bound.k === 'path' && this.outsideBoundNames.has(bound.segs[bound.segs.length - 1]!);
  }

  /** Whether `bound` (written in `scope`) is a trait from outside the program. */
  isOutsideBound(scope: Scope, bound: TypeExpr): boolean {
    if (bound.k !== 'path') return false;
    const res = this.typePath(scope, bound);
    return res.length > 0 && res.every((r) => r.t === 'ext');
  }

  /**
   * Trait items named `name` that the program's trait impls give a type from outside it (`String`,
   * `str`); with the type's path as written (`io::Error`), not those of impls for another type of
   * that name (`impl Ext for fmt::Error`); for slices and arrays, with the element's name when
   * known (`u32`, `Header`).
   */
  stdTypeMethods(typeName: string, name: string, path?: readonly string[], elem?: string): ItemRef[] {
    const out: ItemRef[] = [];
    for (const impl of this.impls().byType.get(`std:${typeName}`) ?? []) {
      if (impl.trait?.t !== 'item') continue;
      const it = itemOf(impl.ref);
      let self = it.implSelf;
      while (self?.k === 'ref') self = self.inner;
      if (self?.k === 'path' && !samePathTail(impl.outsideSelf ?? self.segs, path)) continue;
      // `impl W16 for [u16]` is not a `[u32]`'s: the element as written, unless a parameter of the impl.
      if (self?.k === 'array' && elem !== undefined) {
        let e = self.elem;
        while (e.k === 'ref') e = e.inner;
        const written = e.k === 'path' ? e.segs[e.segs.length - 1]! : undefined;
        const param = e.k === 'path' && e.segs.length === 1 && it.generics?.some((g) => g.name === written);
        if (written !== undefined && !param && written !== elem) continue;
      }
      out.push(...this.membersNamed(impl.trait.ref, name).filter((r) => itemOf(r).kind === 'fn'));
    }
    return dedupeRefs(out);
  }

  /** Trait items named `name` of a set of trait bounds (a generic parameter, `impl Trait`, `dyn Trait`). */
  boundMethods(traits: readonly ItemRef[], name: string): ItemRef[] {
    const out: ItemRef[] = [];
    const seen = new Map<string, ItemRef>();
    for (const t of traits) this.traitClosure(t, seen);
    for (const t of seen.values()) out.push(...this.membersNamed(t, name).filter((r) => itemOf(r).kind === 'fn'));
    return out;
  }

  /**
   * Functions named `name` of the inherent impls of a trait object of one of `traits` (`impl dyn
   * Subscriber { pub fn is<T>(&self) … }`, called `<dyn Subscriber>::is::<T>(s)` or `s.is::<T>()`).
   * None when several impls have one: which of `dyn Subscriber`, `dyn Subscriber + Send`, … the
   * object is, its type does not say here (tracing-core writes the four).
   */
  dynInherentMethods(traits: readonly ItemRef[], name: string): ItemRef[] {
    const out: ItemRef[] = [];
    const impls = new Set<string>();
    for (const t of traits)
      for (const impl of this.impls().byType.get(`${DYN_KEY}${refKey(t)}`) ?? []) {
        const found = this.membersNamed(impl.ref, name).filter((r) => itemOf(r).kind === 'fn');
        if (found.length > 0) impls.add(refKey(impl.ref));
        out.push(...found);
      }
    return impls.size > 1 ? [] : dedupeRefs(out);
  }
}

/**
 * Whether two written paths of outside types may name the same type: one ends the other
 * (`io::Error`, `std::io::Error`), `std`, `core` and `alloc` alike; a bare name may be any.
 */
/**
 * The path a type from outside the program is known by: what its renaming `use` names
 * (`origin` of `use std::result::Result as StdResult` for `StdResult`), else as `written`.
 */
export function knownAs(origin: readonly string[], written: readonly string[]): readonly string[] {
  return origin.length > 1 && origin[origin.length - 1] !== written[written.length - 1] ? origin : written;
}

export function samePathTail(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (!a || !b || a.length < 2 || b.length < 2) return true;
  const norm = (x: string) => (x === 'core' || x === 'alloc' ? 'std' : x);
  for (let i = 1; i <= Math.min(a.length, b.length); i++) if (norm(a[a.length - i]!) !== norm(b[b.length - i]!)) return false;
  return true;
}

/**
 * Of items sharing a name, those a default build compiles (the item's, its impl's and its
 * modules' cfg): twins under opposite cfgs resolve to the active one; when none is known to be
 * active, all are kept.
 */
function preferActive(list: ItemRef[]): ItemRef[] {
  if (list.length < 2) return list;
  const active = list.filter((r) => {
    const it = itemOf(r);
    const features = r.mod.crate.features;
    if (isActive(it.attrs, features) === false) return false;
    const container = it.parent !== -1 ? r.file.items[it.parent] : undefined;
    return !(container?.kind === 'impl' && isActive(container.attrs, features) === false);
  });
  const kept = active.length > 0 ? active : list;
  // Then of those, the ones outside a module a default build leaves out (sequoia's
  // `#[cfg(feature = "crypto-rust")] mod rust;` beside `crypto-nettle`'s), when any is.
  const inCompiledModules = kept.filter((r) => {
    for (let m: Module | undefined = r.mod; m; m = m.parent) if (m.active === false) return false;
    return true;
  });
  return inCompiledModules.length > 0 ? inCompiledModules : kept;
}

/** The type parameter a blanket impl (`impl<T: A> Trait for T`, `for &T`) is for. */
function blanketParam(it: Item): GenericParam | undefined {
  let self = it.implSelf;
  while (self?.k === 'ref') self = self.inner;
  return self?.k === 'path' && self.segs.length === 1 ? it.generics?.find((g) => g.name === self.segs[0]) : undefined;
}

/**
 * Whether two written paths of traits from outside the program name the same trait: the same
 * name, and paths that may be one (`Stream`, `stream::Stream`; not `fmt::Write` and `io::Write`).
 */
function sameOutsideTrait(a: readonly string[], b: readonly string[]): boolean {
  if (a.length === 0 || b.length === 0 || a[a.length - 1] !== b[b.length - 1]) return false;
  if (a.length < 2 || b.length < 2) return true;
  const norm = (x: string) => (x === 'core' || x === 'alloc' ? 'std' : x);
  // One crate's: a re-export at its root (`futures_core::Stream`), or the same module (`fmt::Write` is not `io::Write`).
  return norm(a[0]!) === norm(b[0]!) && (a.length === 2 || b.length === 2 || a[a.length - 2] === b[b.length - 2]);
}

function isGenericParam(t: TypeExpr, item: Item): boolean {
  while (t.k === 'ref') t = t.inner;
  return t.k === 'path' && t.segs.length === 1 && (item.generics?.some((g) => g.name === t.segs[0]) ?? false);
}

function dedupe(list: Res[]): Res[] {
  if (list.length < 2) return list;
  const seen = new Set<string>();
  const out: Res[] = [];
  for (const r of list) {
    const key = r.t === 'ext' ? 'ext' : r.t === 'mod' ? `mod:${r.m.file.path}#${r.m.item}:${r.m.crate.key}` : refKey(r.ref);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(r);
  }
  // Something of the program beats "outside": a glob of std and a local item of the same name.
  return out.some((r) => r.t !== 'ext') ? out.filter((r) => r.t !== 'ext') : out;
}

/** A list of item references without repeats (by item), in order. */
export function dedupeRefs(list: ItemRef[]): ItemRef[] {
  const seen = new Set<string>();
  return list.filter((r) => {
    const k = refKey(r);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
