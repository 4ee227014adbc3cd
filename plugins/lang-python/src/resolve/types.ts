/**
 * The values the resolver reasons about: what a Python expression can be, as far as a
 * flow-insensitive, local inference can tell. Nothing here is a guess: an expression whose
 * value is not known has no value (an empty list), and a call on it gets no edge.
 */
import type { ModuleLocation } from './module-finder.js';
import type { Mod } from './program.js';

/** A definition in a module. */
export interface DefRef {
  mod: Mod;
  def: number;
}

export type Ty =
  /** A module or package of the repository. */
  | { t: 'module'; loc: ModuleLocation }
  /** A class object (`C`, `type[C]`). */
  | { t: 'class'; c: DefRef }
  /** An instance of a repository class. */
  | { t: 'inst'; c: DefRef }
  /** A function or method object; `self` is the receiver of a bound method. */
  | { t: 'func'; f: DefRef; self?: Ty }
  /** `super()` inside a method of `c`: lookups start after `c` in the MRO of `self`. */
  | { t: 'super'; c: DefRef; self: Ty }
  /** A builtin container or scalar with known element types (`list[X]`, `dict[K, V]`, `tuple[A, B]`, `str`). */
  | { t: 'builtin'; name: string; args?: Ty[][] }
  /** A symbol outside the repository, by dotted name (`typing.Optional`, `os.path.join`, `builtins.len`). */
  | { t: 'ext'; name: string }
  | { t: 'none' };

/** What a name or attribute resolves to: the definitions it denotes (for edges) and its possible values. */
export interface Resolved {
  decls: DefRef[];
  values: Ty[];
}

export const NOTHING: Resolved = Object.freeze({ decls: [], values: [] });

/** More possible values than this and the union is dropped as unknown (never widened into a guess). */
export const MAX_UNION = 8;

/** A key identifying a value, for de-duplication. */
export function tyKey(t: Ty): string {
  switch (t.t) {
    case 'module':
      return `m:${t.loc.file ?? t.loc.dir}`;
    case 'class':
      return `c:${t.c.mod.path}#${t.c.def}`;
    case 'inst':
      return `i:${t.c.mod.path}#${t.c.def}`;
    case 'func':
      return `f:${t.f.mod.path}#${t.f.def}${t.self ? `@${tyKey(t.self)}` : ''}`;
    case 'super':
      return `s:${t.c.mod.path}#${t.c.def}`;
    case 'builtin':
      return `b:${t.name}${t.args ? `[${t.args.map((a) => a.map(tyKey).join('|')).join(',')}]` : ''}`;
    case 'ext':
      return `e:${t.name}`;
    case 'none':
      return 'none';
  }
}

export function defKey(d: DefRef): string {
  return `${d.mod.path}#${d.def}`;
}

/** Union of value lists, de-duplicated; more than {@link MAX_UNION} values is unknown. */
export function unionTys(...lists: readonly (readonly Ty[])[]): Ty[] {
  if (lists.length === 1) return lists[0] as Ty[];
  const seen = new Map<string, Ty>();
  for (const list of lists) for (const t of list) seen.set(tyKey(t), t);
  if (seen.size > MAX_UNION) return [];
  return [...seen.values()];
}

/** Union of resolutions. */
export function unionResolved(list: readonly Resolved[]): Resolved {
  if (list.length === 0) return NOTHING;
  if (list.length === 1) return list[0]!;
  const decls = new Map<string, DefRef>();
  for (const r of list) for (const d of r.decls) decls.set(defKey(d), d);
  return { decls: [...decls.values()], values: unionTys(...list.map((r) => r.values)) };
}
