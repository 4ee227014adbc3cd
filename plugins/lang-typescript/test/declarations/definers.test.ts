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

  it('the functions of an anonymous object literal are definitions of the function around them; its other values and anonymous object types are none', () => {
    const { names, list, sf } = collect(
      'function f() { return sub({ m() {}, get x() { return 1; }, next: (v) => g(v), n: 1, o: { deep: function () {} } }); }\nlet v: { m(): void; get x(): number };\n',
    );
    expect(names).toEqual(['function f', 'method f.m', 'property f.x', 'method f.next', 'method f.deep', 'variable v']);
    expect(header(sf, list[3]!)).toBe('next: (v) =>');
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
      'method inner.no',
      'method z',
    ]);
  });
});

describe('functions defined by assignment', () => {
  it('x.name = …, x.y.name = …, name = … anywhere: named by the property, qualified by the definition around them', () => {
    const { names, list, sf } = collect(
      'export const ZodObject = $constructor("ZodObject", (inst, def) => {\n  inst.keyof = () => _enum(def);\n  inst._zod.parse = function (payload) { return payload; };\n  inst.n = 1;\n});\nlet handler;\nfunction setup() { handler = function () {}; }\n',
    );
    expect(names).toEqual([
      'function ZodObject',
      'method ZodObject.keyof',
      'method ZodObject.parse',
      'variable handler',
      'function setup',
      'function setup.handler',
    ]);
    expect(header(sf, list[1]!)).toBe('inst.keyof = () =>');
    expect(header(sf, list[0]!)).toBe('export const ZodObject = $constructor("ZodObject", (inst, def) =>');
  });

  it("this.name = … in a member of a class is a member of the class; in a plain function it is the function's", () => {
    const { names } = collect(
      'class C {\n  constructor() { this.onClose = () => this.close(); }\n  init() { this.K = class {}; }\n}\nfunction F() { this.run = function () {}; }\n',
    );
    expect(names).toEqual([
      'class C',
      'constructor C.constructor',
      'method C.onClose',
      'method C.init',
      'class C.K',
      'function F',
      'method F.run',
    ]);
  });
});

describe('a module-level const made by a call that wraps a function', () => {
  it('is a function (the effect style); a call without a function argument, or a local one, is not', () => {
    const { names, list, sf } = collect(
      'export const map = dual(2, (self, f) => pipe(self, f));\nexport const gen = Effect.fn(function* () { yield 1; });\nexport const tag = Context.GenericTag("x");\nfunction g() { const local = memo(() => 1); }\n',
    );
    expect(names).toEqual(['function map', 'function gen', 'constant tag', 'function g']);
    expect(header(sf, list[0]!)).toBe('export const map = dual(2, (self, f) =>');
  });
});
