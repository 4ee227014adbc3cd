import { refTargetName, type GraphStore } from '../store/index.js';
import type { ChangePlan } from './change-plan.js';

/** What a changed file's new analysis changed of what other files can see: some names, or anything. */
export type InterfaceChange = { names: ReadonlySet<string> } | 'anything';

/**
 * Which dependents one plugin's part of a run must analyze again (protocol SPEC §9.11). A
 * dependent is planned because its edges point into changing files (its causes); once those
 * files' first phase is in, their new interfaces are compared with the stored ones, and a
 * dependent that names none of what changed keeps its stored analysis. Whatever cannot be
 * compared (no interface on either side, another plugin version, a removed or failed cause)
 * counts as a change of anything.
 *
 * @example
 * ```ts
 * const scope = new DependentScope(store, plan, 'lang-python@0.1.0');
 * scope.record('pkg/text.py', graphFile.interface); // as each changed file's first phase arrives
 * if (!scope.affected('pkg/views.py')) summary.dependentsUnaffected++;
 * ```
 */
export class DependentScope {
  private readonly after = new Map<string, Readonly<Record<string, string>> | undefined>();
  private readonly reaches = new Map<string, ReadonlySet<string> | 'anything'>();

  constructor(
    private readonly store: Pick<GraphStore, 'referrersOf' | 'pointingInto'>,
    private readonly plan: Pick<ChangePlan, 'stored' | 'causes' | 'interfacesBefore'>,
    /** The plugin of this part of the run, `id@version`. */
    private readonly label: string,
  ) {}

  /** A changed file's analysis arrived (its first phase in this run, status ok), with its interface if it sent one. */
  record(path: string, iface: Readonly<Record<string, string>> | undefined): void {
    this.after.set(path, iface);
    this.reaches.delete(path);
  }

  /** What the change of `path` changed of its interface (anything, when that cannot be told). */
  changeOf(path: string): InterfaceChange {
    if (!this.after.has(path)) return 'anything';
    const now = this.after.get(path);
    const before = this.plan.interfacesBefore.get(path);
    if (!now || !before || this.plan.stored.get(path)?.plugin !== this.label) return 'anything';
    const names = new Set<string>();
    for (const key of new Set([...Object.keys(before), ...Object.keys(now)])) {
      if (before[key] === now[key]) continue;
      if (key === '') return 'anything';
      names.add(refTargetName(key));
    }
    return { names };
  }

  /** Whether dependent `path` must be analyzed again. */
  affected(path: string): boolean {
    const causes = this.plan.causes.get(path);
    if (!causes || causes.length === 0) return true;
    return causes.some((cause) => {
      const reach = this.reachOf(cause);
      return reach === 'anything' || reach.has(path);
    });
  }

  /** The files a change of `path` reaches: those naming a changed name in a ref, or with an edge into a node of one. */
  private reachOf(path: string): ReadonlySet<string> | 'anything' {
    let reach = this.reaches.get(path);
    if (!reach) {
      const change = this.changeOf(path);
      if (change === 'anything') reach = 'anything';
      else {
        const names = [...change.names];
        reach = new Set([...this.store.referrersOf(names), ...this.store.pointingInto(path, names)]);
      }
      this.reaches.set(path, reach);
    }
    return reach;
  }
}
