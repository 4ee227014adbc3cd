// The walk and its definers, one kind of syntax each: what becomes a definition, its name and its header.
import { describe, expect, it } from 'vitest';
import { collect, header } from './collect.js';

describe('declaration statements', () => {
  it('functions, classes, interfaces, enums, type aliases with the members of the object type they name', () => {
    const { names, list, sf } = collect(
      'export default function () {}\nclass C extends B { x = 1; }\ninterface I { m(): void; p: string; f: () => void }\nenum E { A }\ntype T = ({ run(): void; n: number });\ntype U = string | { skipped(): void };\nfunction outer() { function inner() {} }\n',
    );
    expect(names).toEqual([
      'function default',
      'class C',
      'field C.x',
      'interface I',
      'method I.m',
      'property I.p',
      'method I.f',
      'enum E',
      'type T',
      'method T.run',
      'property T.n',
      'type U',
      'function outer',
      'function outer.inner',
    ]);
    expect(header(sf, list[1]!)).toBe('class C extends B');
    expect(header(sf, list[12]!)).toBe('function outer()');
  });

  it('namespaces nest, ambient modules keep their quotes, declare global is global; ambient variables count as exported', () => {
    const { names } = collect(
      'namespace A.B { const x = 1; }\ndeclare module "pkg" { let y: number; }\ndeclare global { interface Window {} }\n',
    );
    expect(names).toEqual([
      'namespace A',
      'namespace A.B',
      'constant A.B.x',
      'module "pkg"',
      'variable "pkg".y',
      'namespace global',
      'interface global.Window',
    ]);
  });
});

describe('members', () => {
  it('class members: constructor, methods, accessors, function-valued and function-typed properties, fields', () => {
    const { names, list, sf } = collect(
      'class C {\n  constructor(a: number);\n  constructor(a?: number) {}\n  m() {}\n  get g() { return 1; }\n  h = () => 1;\n  k: (x: number) => void;\n  f = 2;\n}\n',
    );
    expect(names).toEqual([
      'class C',
      'constructor C.constructor@overload1',
      'constructor C.constructor',
      'method C.m',
      'property C.g',
      'method C.h',
      'method C.k',
      'field C.f',
    ]);
    expect(header(sf, list[5]!)).toBe('h = () =>');
  });

  it('members of anonymous object literals and object types are no definitions', () => {
    const { names } = collect('function f() { return { m() {}, get x() { return 1; } }; }\nlet v: { m(): void; get x(): number };\n');
    expect(names).toEqual(['function f', 'variable v']);
  });
});

describe('values', () => {
  it('function and class values anywhere; module-level variables; locals are walked as code', () => {
    const { names } = collect(
      'const f = () => 1;\nlet K = class {};\nvar v = 1, w = 2;\nfunction g() { const local = 1; const h = function () {}; }\n',
    );
    expect(names).toEqual(['function f', 'class K', 'variable v', 'variable w', 'function g', 'function g.h']);
  });

  it('named object literals: methods, nested objects and other values become members; shorthand too', () => {
    const { names, list, sf } = collect('export const api = { get() {}, sub: { run: () => 1 }, n: 1, x };\n');
    expect(names).toEqual(['constant api', 'method api.get', 'property api.sub', 'method api.sub.run', 'property api.n', 'property api.x']);
    expect(header(sf, list[0]!)).toBe('export const api = {');
  });

  it('export default of a function, a class or an object literal that defines functions', () => {
    expect(collect('export default () => 1;\n').names).toEqual(['function default']);
    expect(collect('export default class Named {}\n').names).toEqual(['class Named']);
    expect(collect('export default { a() {} };\n').names).toEqual(['constant default', 'method default.a']);
    expect(collect('export default 42;\n').names).toEqual([]);
  });
});

describe('CommonJS', () => {
  it('exports.f, module.exports.f, A.prototype.m, A.f and the members of module.exports = { … } at the top level', () => {
    const { names } = collect(
      'exports.a = function () {};\nmodule.exports.b = () => 1;\nA.prototype.m = function () {};\nA.f = function () {};\nexports.K = class {};\nmodule.exports = { c() {}, d: 1 };\nfunction inner() { exports.no = function () {}; }\nmodule.x.y.z = function () {};\n',
      'a.js',
    );
    expect(names).toEqual([
      'function a',
      'function b',
      'method A.m',
      'function A.f',
      'class K',
      'method c',
      'property d',
      'function inner',
    ]);
  });
});
