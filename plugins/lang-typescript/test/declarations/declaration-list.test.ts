// The list the walk fills: overload groups form only from consecutive bodiless signatures of one name.
import { describe, expect, it } from 'vitest';
import { DeclarationList } from '../../src/declarations/declaration-list.js';
import { collect, parse } from './collect.js';

describe('DeclarationList', () => {
  it('groups a declaration with the bodiless one just before it (same kind, parent and name)', () => {
    const sf = parse('x');
    const node = sf.statements[0]!;
    const list = new DeclarationList();
    const a = list.add('function', 'f', node, 0, undefined, [node], { overloadKind: 'function', hasBody: false });
    const b = list.add('function', 'f', sf, 0, undefined, [], { overloadKind: 'function', hasBody: true });
    const c = list.add('function', 'f', sf, 0, undefined, [], { overloadKind: 'function', hasBody: true });
    expect(a.group).toBe(b.group);
    expect(b.group).toEqual([a, b]);
    expect(c.group).toBeUndefined(); // b has a body: c is a repeat, not an overload
    expect(list.byDeclaration.get(node)).toBe(a);
    expect(list.byScope.get(sf)).toBe(c);
  });

  it('qualifies a name by its parent (or the given qualifier) and cuts it at 200 characters', () => {
    const sf = parse('x');
    const list = new DeclarationList();
    const parent = list.add('class', 'C', sf, 0, undefined, []);
    expect(list.add('method', 'm', sf, 0, parent, []).qualifiedName).toBe('C.m');
    expect(list.add('method', 'p', sf, 0, undefined, [], { qualifier: 'A' }).qualifiedName).toBe('A.p');
    expect(list.add('function', 'n'.repeat(300), sf, 0, undefined, []).name).toHaveLength(200);
  });

  it('does not group overloads across a declaration in between, or across parents', () => {
    const { names } = collect(
      'class A { m(): void; m(x?: number) {} }\nclass B { m(): void; }\nclass D { m(): void; n(): void; m(x?: number) {} }\n',
    );
    expect(names).toEqual([
      'class A',
      'method A.m@overload1',
      'method A.m',
      'class B',
      'method B.m',
      'class D',
      'method D.m',
      'method D.n',
      'method D.m@2',
    ]);
  });
});
