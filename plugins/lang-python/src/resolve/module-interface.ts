/**
 * A module's interface (protocol SPEC §9.11): for every name another module's resolution can
 * reach — module-level names, class members and instance attributes — a digest of everything the
 * {@link Evaluator} reads through it. The host compares it with the stored one after an edit and
 * re-analyzes only the dependents that name what changed, so a statement added to a function
 * body, or a new function nobody calls yet, re-resolves one file instead of every importer.
 *
 * What a name's digest covers:
 * - its own facts: its bindings (a definition's kind, decorators, bases, parameters, return
 *   annotation and `return` expressions; an assignment's value and annotation; an import's
 *   module), with positions replaced by their order, so that an edit elsewhere in the file does
 *   not change them;
 * - the slice of function bodies its values are computed from: the local bindings that a
 *   `return` (or a `self.x = …`) reads, transitively — not the rest of the body;
 * - the digests of the names of this module those facts look up: free names (present or not:
 *   a new module-level `str` shadows the builtin), and, for an attribute `.x` of anything, every
 *   class member and instance attribute called `x` (the type is not known here).
 * The key `""` covers what no name does: star imports and `__all__`. Names reached in other
 * modules are theirs to report (a change there re-analyzes the files naming it there).
 */
import * as crypto from 'node:crypto';
import { LATE, parseAnnotationString } from '../syntax/annotation-string.js';
import type { Binding, DefIR, Expr, ModuleIR } from '../syntax/module-ir.js';

/** Name → digest; `""` for the module as a whole. */
export type ModuleInterface = Record<string, string>;

/** A position, replaced by its rank among the positions of one name's facts before the digest is taken. */
type Pos = [number];

/** Characters of a digest (hex of sha1): 64 bits, far from any collision in one module. */
const DIGEST_CHARS = 16;

/**
 * @example
 * ```ts
 * const ir = syntax.read('pkg/text.py', source);
 * graph.interface(moduleInterface(ir)); // { '': '…', slugify: '…', 'Truncator.chars': '…', … }
 * ```
 */
export function moduleInterface(ir: ModuleIR): ModuleInterface {
  return new InterfaceBuilder(ir).build();
}

/** One key's facts while they are gathered: the keys they depend on, inlined locals, positions to rank. */
class Facts {
  readonly deps = new Set<string>();
  readonly locals: Record<string, unknown> = {};
  /** Definitions being expanded (a recursive one is named, not expanded again). */
  readonly expanding: number[] = [];
  private readonly slots: Pos[] = [];

  pos(p: number): Pos | 'late' {
    if (p === LATE) return 'late';
    const slot: Pos = [p];
    this.slots.push(slot);
    return slot;
  }

  /** The canonical text of `parts`, each position replaced by its rank (so the facts serialize without a replacer). */
  text(parts: unknown): string {
    if (this.slots.length > 0) {
      const sorted = this.slots.map((s) => s[0]).sort((a, b) => a - b);
      const ranks = new Map<number, number>();
      for (const p of sorted) if (!ranks.has(p)) ranks.set(p, ranks.size);
      for (const slot of this.slots) slot[0] = ranks.get(slot[0])!;
      this.slots.length = 0;
    }
    return JSON.stringify([parts, this.locals]);
  }
}

class InterfaceBuilder {
  private readonly scopeIds: string[];
  private readonly defIds: string[];
  /** The class a class scope belongs to, by scope index. */
  private readonly classOfScope = new Map<number, DefIR>();

  constructor(private readonly ir: ModuleIR) {
    this.defIds = defIdentities(ir);
    this.scopeIds = scopeIdentities(ir, this.defIds);
    for (const d of ir.defs) if (d.kind === 'class' && d.scope >= 0) this.classOfScope.set(d.scope, d);
  }

  build(): ModuleInterface {
    const own = new Map<string, string>();
    const deps = new Map<string, Set<string>>();
    const add = (key: string, facts: Facts, parts: unknown) => {
      own.set(key, digest(facts.text(parts)));
      deps.set(key, facts.deps);
    };
    // Module-level names.
    for (const [name, bindings] of this.ir.scopes[0]?.names ?? []) {
      const facts = new Facts();
      add(
        name,
        facts,
        bindings.map((b) => this.binding(b, 0, facts)),
      );
    }
    // Class members and instance attributes.
    for (const [scope, cls] of this.classOfScope) {
      const names = new Set([...(this.ir.scopes[scope]?.names.keys() ?? []), ...(cls.instanceAttrs?.keys() ?? [])]);
      for (const name of names) {
        const facts = new Facts();
        const bindings = this.ir.scopes[scope]?.names.get(name) ?? [];
        const attrs = (cls.instanceAttrs?.get(name) ?? []).map((a) => [
          this.scopeIds[a.scope],
          a.value ? this.expr(a.value, a.scope, facts) : null,
          a.ann ? this.expr(a.ann, a.scope, facts) : null,
          a.path ?? null,
          facts.pos(a.pos),
        ]);
        add(memberKey(cls, name), facts, [bindings.map((b) => this.binding(b, scope, facts)), attrs]);
      }
    }
    // The module as a whole.
    const whole = new Facts();
    const stars = (this.ir.scopes[0]?.stars ?? []).map((s) => [s.module, s.level]);
    own.set('', digest(whole.text([stars, this.ir.all ?? null])));
    deps.set('', new Set());
    return effectiveDigests(own, deps);
  }

  /** One binding of a name of scope `scope`, canonical. */
  private binding(b: Binding, scope: number, facts: Facts): unknown {
    switch (b.k) {
      case 'def':
        return ['def', this.definition(b.def, facts), facts.pos(b.pos)];
      case 'assign':
        return ['=', this.expr(b.value, scope, facts), b.ann ? this.expr(b.ann, scope, facts) : null, b.path ?? null, facts.pos(b.pos)];
      case 'import':
        return ['import', b.module, b.level, b.name ?? null, facts.pos(b.pos)];
      case 'param': {
        const outer = this.ir.defs[b.def]?.outer ?? scope;
        const ann = b.ann ? this.expr(b.ann, outer, facts) : null;
        return ['param', b.index, ann, b.dflt ? this.expr(b.dflt, outer, facts) : null, b.star ?? null, facts.pos(b.pos)];
      }
      case 'for':
        return ['for', this.expr(b.iter, scope, facts), b.path ?? null, facts.pos(b.pos)];
      case 'with':
        return ['with', this.expr(b.ctx, scope, facts), b.path ?? null, facts.pos(b.pos)];
      case 'except':
        return ['except', this.expr(b.types, scope, facts), facts.pos(b.pos)];
      case 'narrow':
        return ['narrow', this.expr(b.types, scope, facts), facts.pos(b.pos), facts.pos(b.end)];
      case 'unknown':
        return ['?', facts.pos(b.pos)];
    }
  }

  /** What resolution reads of a definition: never its range, skeleton or body statements. */
  private definition(i: number, facts: Facts): unknown {
    const d = this.ir.defs[i];
    if (!d) return null;
    if (facts.expanding.includes(i)) return ['recursive', this.defIds[i]];
    facts.expanding.push(i);
    const outer = d.outer;
    const parts = [
      d.kind,
      d.name,
      this.defIds[i],
      d.decoratorNames,
      d.decorators.map((e) => this.expr(e, outer, facts)),
      d.bases?.map((e) => this.expr(e, outer, facts)) ?? null,
      d.params?.map((p) => [
        p.name,
        p.ann ? this.expr(p.ann, outer, facts) : null,
        p.dflt ? this.expr(p.dflt, outer, facts) : null,
        p.star ?? null,
      ]) ?? null,
      d.returns ? this.expr(d.returns, outer, facts) : null,
      d.returnExprs?.map((e) => this.expr(e, d.scope, facts)) ?? null,
      d.isGenerator ?? false,
      d.isAsync ?? false,
      d.fields ?? null,
    ];
    facts.expanding.pop();
    return parts;
  }

  /** An expression evaluated in scope `scope`, canonical; records what it looks up. */
  private expr(e: Expr, scope: number, facts: Facts): unknown {
    switch (e.k) {
      case 'name':
        return ['n', e.id, this.lookup(scope, e.id, e.pos, facts), facts.pos(e.pos)];
      case 'attr':
        facts.deps.add(`.${e.name}`);
        return ['.', this.expr(e.obj, scope, facts), e.name];
      case 'call':
        return ['()', this.expr(e.fn, scope, facts), e.args.map((a) => this.expr(a, scope, facts))];
      case 'sub':
        return ['[]', this.expr(e.obj, scope, facts), e.idx.map((a) => this.expr(a, scope, facts))];
      case 'str':
        // Read as a forward reference wherever it is one: what it names counts.
        return ['str', e.v, this.expr(parseAnnotationString(e.v), scope, facts)];
      case 'union':
        return ['|', e.items.map((a) => this.expr(a, scope, facts))];
      case 'lit':
        return [
          'lit',
          e.t,
          e.items?.map((a) => this.expr(a, scope, facts)) ?? null,
          e.values?.map((a) => this.expr(a, scope, facts)) ?? null,
        ];
      case 'func':
        return ['func', this.definition(e.def, facts)];
      case 'await':
        return ['await', this.expr(e.e, scope, facts)];
      case 'unknown':
        return ['?'];
    }
  }

  /**
   * Where `name`, used at `pos` of `scope`, is looked up (the way {@link Evaluator.lookupName}
   * walks scopes): a function's local bindings are inlined into the facts; a module or class
   * name becomes a dependency, with how many of its bindings the use sees when it is in that
   * very scope (flow order).
   */
  private lookup(scope: number, name: string, pos: number, facts: Facts): unknown {
    let s = scope;
    let first = true;
    let fromFunction = false;
    while (s >= 0) {
      const sc = this.ir.scopes[s];
      if (!sc) break;
      if (sc.globals?.has(name)) {
        facts.deps.add(name);
        return 'global';
      }
      if (!(sc.kind === 'class' && fromFunction)) {
        const bindings = sc.names.get(name);
        if (bindings && bindings.length > 0) {
          const seen = first ? visibility(bindings, pos) : 'all';
          if (s === 0) {
            facts.deps.add(name);
            return ['module', seen];
          }
          const cls = this.classOfScope.get(s);
          if (sc.kind === 'class' && cls) {
            facts.deps.add(memberKey(cls, name));
            return ['class', seen];
          }
          const local = `${this.scopeIds[s]}:${name}`;
          if (!(local in facts.locals)) {
            facts.locals[local] = null; // while its bindings are read: a binding that reads itself stops here
            facts.locals[local] = bindings.map((b) => this.binding(b, s, facts));
          }
          return ['local', this.scopeIds[s]];
        }
        if (sc.stars && sc.stars.length > 0) facts.deps.add('');
      }
      if (sc.kind === 'function' || sc.kind === 'lambda') fromFunction = true;
      if (sc.kind === 'comprehension' && first) fromFunction = false;
      first = false;
      s = sc.parent;
    }
    // A builtin, or nothing yet: a module-level binding of the name would change it.
    facts.deps.add(name);
    return 'free';
  }
}

/** Which bindings a use at `pos` in their own scope sees: plain ones before it, narrowings around it. */
function visibility(bindings: readonly Binding[], pos: number): [number, number] {
  let before = 0;
  let narrowing = 0;
  for (const b of bindings) {
    if (b.k === 'narrow') {
      if (b.pos <= pos && pos < b.end) narrowing++;
    } else if (b.pos < pos) before++;
  }
  return [before, narrowing];
}

function memberKey(cls: DefIR, name: string): string {
  return `${cls.qname}.${name}`;
}

/** `crypto.hash` (Node ≥ 20.12): a one-shot digest, several times faster than a Hash object for short texts. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

function digest(text: string): string {
  return (oneShot ? oneShot('sha1', text, 'hex') : crypto.createHash('sha1').update(text).digest('hex')).slice(0, DIGEST_CHARS);
}

/** A stable identity per definition: its signature, else (lambdas) its place among the nameless ones of its scope. */
function defIdentities(ir: ModuleIR): string[] {
  const anonymous = new Map<number, number>();
  return ir.defs.map((d) => {
    if (d.sig !== '') return d.sig;
    const n = anonymous.get(d.outer) ?? 0;
    anonymous.set(d.outer, n + 1);
    return `${d.outer >= 0 && ir.scopes[d.outer]?.def !== undefined ? (ir.defs[ir.scopes[d.outer]!.def]?.sig ?? '') : ''}/λ${n}`;
  });
}

/** A stable identity per scope: its definition's, else its place among the nameless scopes of its parent. */
function scopeIdentities(ir: ModuleIR, defIds: readonly string[]): string[] {
  const ids: string[] = [];
  const anonymous = new Map<number, number>();
  ir.scopes.forEach((sc, i) => {
    if (i === 0) ids.push('<module>');
    else if (sc.def >= 0) ids.push(`d:${defIds[sc.def] ?? sc.def}`);
    else {
      const n = anonymous.get(sc.parent) ?? 0;
      anonymous.set(sc.parent, n + 1);
      ids.push(`${ids[sc.parent] ?? ''}/${sc.kind}${n}`);
    }
  });
  return ids;
}

/**
 * Each key's digest: its own facts and the digests of every key they depend on, transitively
 * (strongly connected keys share one digest of all their facts). `.x` dependencies stand for
 * every member key ending in `.x`; a dependency on a name the module does not bind counts as
 * its absence. A key that depends on nothing keeps the digest of its own facts.
 */
function effectiveDigests(own: ReadonlyMap<string, string>, deps: ReadonlyMap<string, ReadonlySet<string>>): ModuleInterface {
  const keys = [...own.keys()];
  const idOf = new Map(keys.map((k, i) => [k, i]));
  const members = new Map<string, number[]>();
  keys.forEach((key, i) => {
    const dot = key.lastIndexOf('.');
    if (dot < 0) return;
    const last = key.slice(dot + 1);
    const list = members.get(last);
    if (list) list.push(i);
    else members.set(last, [i]);
  });
  // Nodes: the keys, then one node per `.x` depended on, whose successors are the members named x
  // (so that a module with many keys reading `.get` and many `get` members stays linear).
  const labels = [...keys];
  const ownOf = keys.map((k) => own.get(k)!);
  const successors: number[][] = [];
  const absent: string[][] = [];
  const attributeNode = new Map<string, number>();
  const attribute = (name: string): number | undefined => {
    let v = attributeNode.get(name);
    if (v === undefined) {
      const list = members.get(name);
      if (!list) return undefined;
      v = labels.length;
      labels.push(`.${name}`);
      ownOf.push('');
      successors[v] = list;
      absent[v] = [];
      attributeNode.set(name, v);
    }
    return v;
  };
  keys.forEach((key, i) => {
    const out: number[] = [];
    const missing: string[] = [];
    for (const d of deps.get(key) ?? []) {
      const j = d.startsWith('.') ? attribute(d.slice(1)) : idOf.get(d);
      if (j === undefined) {
        if (!d.startsWith('.')) missing.push(d);
      } else if (j !== i) out.push(j);
    }
    successors[i] = out;
    absent[i] = missing;
  });

  // Tarjan's strongly connected components, iteratively; components come out successors first.
  const n = labels.length;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const componentOf = new Int32Array(n).fill(-1);
  const componentDigest: string[] = [];
  const stack: number[] = [];
  let next = 0;
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue;
    const work: { v: number; at: number }[] = [];
    const enter = (v: number) => {
      index[v] = low[v] = next++;
      stack.push(v);
      onStack[v] = 1;
      work.push({ v, at: 0 });
    };
    enter(root);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const succ = successors[top.v]!;
      if (top.at < succ.length) {
        const w = succ[top.at++]!;
        if (index[w] === -1) enter(w);
        else if (onStack[w]) low[top.v] = Math.min(low[top.v]!, index[w]!);
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]!.v;
        low[parent] = Math.min(low[parent]!, low[top.v]!);
      }
      if (low[top.v] !== index[top.v]) continue;
      const inside: number[] = [];
      let w: number;
      do {
        w = stack.pop()!;
        onStack[w] = 0;
        inside.push(w);
      } while (w !== top.v);
      const c = componentDigest.length;
      for (const m of inside) componentOf[m] = c;
      const outside = new Set<number>();
      const missing = new Set<string>();
      for (const m of inside) {
        for (const x of successors[m]!) if (componentOf[x] !== c) outside.add(componentOf[x]!);
        for (const a of absent[m]!) missing.add(a);
      }
      if (inside.length === 1 && outside.size === 0 && missing.size === 0) componentDigest.push(ownOf[inside[0]!]!);
      else
        componentDigest.push(
          digest(
            [
              ...inside.map((m) => `${labels[m]}=${ownOf[m]}`).sort(),
              ...[...outside].map((o) => `>${componentDigest[o]}`).sort(),
              ...[...missing].map((a) => `-${a}`).sort(),
            ].join('\n'),
          ),
        );
    }
  }
  const out: ModuleInterface = {};
  keys.forEach((key, i) => {
    out[key] = key === '' ? own.get('')! : componentDigest[componentOf[i]!]!;
  });
  return out;
}
