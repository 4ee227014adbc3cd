import type { Pending } from './declaration-list.js';

/**
 * Gives every declaration its signature (and each overload group its primary): the qualified
 * name made unique in source order.
 * - an overload group gives the bare name to its implementation (or, without one, to its first
 *   signature); the other signatures get `@overload1`, `@overload2`, … in source order;
 * - a setter gets `@set` (its getter keeps the bare name);
 * - any other repeat gets `@2`, `@3`, … (e.g. `interface X` merged with `namespace X`).
 * `''` is the file node's signature, so no declaration gets it.
 */
export function assignSignatures(list: readonly Pending[]): void {
  // Wanted signatures: overload groups first (the primary is bare, the others numbered).
  const wanted = new Map<Pending, string>();
  for (const d of list) {
    if (wanted.has(d)) continue;
    if (!d.group) {
      wanted.set(d, d.qualifiedName + d.suffix);
      continue;
    }
    const primary = d.group.find((m) => m.hasBody) ?? d.group[0]!;
    let i = 0;
    primary.overloads = d.group.filter((m) => m !== primary);
    for (const m of d.group) {
      m.primary = primary;
      wanted.set(m, m === primary ? m.qualifiedName : `${m.qualifiedName}@overload${++i}`);
    }
  }
  // Unique in source order; '' is the file node's.
  const taken = new Set<string>(['']);
  for (const d of list) {
    const w = wanted.get(d)!;
    let s = w;
    for (let n = 2; taken.has(s); n++) s = `${w}@${n}`;
    taken.add(s);
    d.signature = s;
  }
}
