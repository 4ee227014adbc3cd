import type { NodeKind } from '@travsr/sdk';
import type ts from 'typescript';
import type { Declaration } from '../declarations.js';
import { MAX_NAME } from './declaration-syntax.js';

/** The declarations whose repeats form an overload group. */
export type Overloadable = 'function' | 'method' | 'constructor';

/** A {@link Declaration} while the file is walked: what its signature is computed from. */
export interface Pending extends Declaration {
  overloadKind: Overloadable | undefined;
  hasBody: boolean;
  /** The overload group it belongs to (shared by its members), if any. */
  group: Pending[] | undefined;
  /** The wanted signature before uniqueness (setters get `@set`). */
  suffix: string;
}

/** How {@link DeclarationList.add} files a declaration beyond its name and place. */
export interface AddOptions {
  overloadKind?: Overloadable;
  /** False for a signature without a body (an overload, an abstract or ambient member); default true. */
  hasBody?: boolean;
  suffix?: string;
  /** The qualified name's prefix when it is not the parent's (`A` for `A.prototype.m = …`). */
  qualifier?: string;
}

/**
 * The declarations of one file in source order, with the two look-ups, as they are found.
 * A declaration of an overloadable kind that repeats the one added just before it (same
 * parent and qualified name, the earlier one without a body) joins its overload group.
 */
export class DeclarationList {
  readonly list: Pending[] = [];
  readonly byScope = new Map<ts.Node, Declaration>();
  readonly byDeclaration = new Map<ts.Node, Declaration>();
  private lastAdded: Pending | undefined;

  /** Adds a declaration named `name` (cut to 200 characters) whose extent is `rangeNode`; `keys` are the nodes the checker may name for it. */
  add(
    kind: NodeKind,
    name: string,
    rangeNode: ts.Node,
    headerEnd: number,
    parent: Declaration | undefined,
    keys: (ts.Node | undefined)[],
    opts: AddOptions = {},
  ): Pending {
    const short = name.slice(0, MAX_NAME);
    const qualifier = opts.qualifier ?? parent?.qualifiedName;
    const d: Pending = {
      kind,
      name: short,
      qualifiedName: qualifier ? `${qualifier}.${short}` : short,
      signature: '',
      rangeNode,
      headerEnd,
      parent,
      primary: undefined as unknown as Declaration,
      overloadKind: opts.overloadKind,
      hasBody: opts.hasBody ?? true,
      group: undefined,
      suffix: opts.suffix ?? '',
    };
    d.primary = d;
    const last = this.lastAdded;
    if (
      d.overloadKind &&
      last?.overloadKind === d.overloadKind &&
      last.parent === parent &&
      last.qualifiedName === d.qualifiedName &&
      !last.hasBody
    ) {
      d.group = last.group ?? [last];
      last.group = d.group;
      d.group.push(d);
    }
    this.list.push(d);
    this.byScope.set(rangeNode, d);
    for (const k of keys) if (k) this.byDeclaration.set(k, d);
    this.lastAdded = d;
    return d;
  }
}
