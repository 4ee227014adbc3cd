// The signature step: qualified names made unique in source order, overload groups and their primary.
import { describe, expect, it } from 'vitest';
import { collect } from './collect.js';

describe('assignSignatures', () => {
  it('gives an overload group’s bare name to its implementation, numbering the other signatures', () => {
    const { names, list } = collect('function f(a: string): void;\nfunction f(a: number): void;\nfunction f(a: unknown) {}\n');
    expect(names).toEqual(['function f@overload1', 'function f@overload2', 'function f']);
    const impl = list[2]!;
    expect(list.every((d) => d.primary === impl)).toBe(true);
    expect(impl.overloads).toEqual([list[0], list[1]]);
  });

  it('gives the bare name to the first signature of a group without implementation', () => {
    const { names } = collect('declare function g(a: string): void;\ndeclare function g(a: number): void;\n');
    expect(names).toEqual(['function g', 'function g@overload1']);
  });

  it('marks a setter @set and numbers any other repeat from @2 in source order', () => {
    const { names } = collect('class C {\n  get x() { return 1; }\n  set x(v) {}\n}\ninterface X {}\nnamespace X {}\nnamespace X {}\n');
    expect(names).toEqual(['class C', 'property C.x', 'property C.x@set', 'interface X', 'namespace X@2', 'namespace X@3']);
  });

  it('never gives a declaration the empty signature of the file node', () => {
    const { list } = collect('module.exports = { "": function () {} };\n', 'a.js');
    expect(list.map((d) => d.signature)).toEqual(['@2']);
  });
});
