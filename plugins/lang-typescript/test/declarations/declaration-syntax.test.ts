// The syntax questions the definers ask.
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  definesFunctions,
  entityPath,
  isFunctionTypeNode,
  propertyNameText,
  unwrapExpression,
} from '../../src/declarations/declaration-syntax.js';
import { parse } from './collect.js';

/** The initializer of the first `const` of `source`. */
function init(source: string): { e: ts.Expression; sf: ts.SourceFile } {
  const sf = parse(source);
  const s = sf.statements[0] as ts.VariableStatement;
  return { e: s.declarationList.declarations[0]!.initializer!, sf };
}

describe('declaration syntax', () => {
  it('unwraps parentheses, as, satisfies, ! and <T> down to the value', () => {
    expect(ts.isArrowFunction(unwrapExpression(init('const f = ((() => 1) as any satisfies unknown)!;').e))).toBe(true);
    expect(ts.isFunctionExpression(unwrapExpression(init('const f = <any>(function () {});').e))).toBe(true);
  });

  it('names members: identifiers, private names, literals, computed names in brackets', () => {
    const sf = parse('class C { a() {} #b() {} "c d"() {} 1() {} ["e"]() {} [Symbol.iterator]() {} }');
    const members = (sf.statements[0] as ts.ClassDeclaration).members;
    expect(members.map((m) => propertyNameText(m.name, sf))).toEqual(['a', '#b', 'c d', '1', 'e', '[Symbol.iterator]']);
    expect(propertyNameText(undefined, sf)).toBeUndefined();
  });

  it('tells an object literal that defines functions, three levels deep at most', () => {
    expect(definesFunctions(unwrapExpression(init('const o = { a: 1, b: { c: () => 1 } };').e) as ts.ObjectLiteralExpression)).toBe(true);
    expect(definesFunctions(unwrapExpression(init('const o = { get x() { return 1; } };').e) as ts.ObjectLiteralExpression)).toBe(true);
    expect(definesFunctions(unwrapExpression(init('const o = { a: 1, b: "x" };').e) as ts.ObjectLiteralExpression)).toBe(false);
    const deep = 'const o = { a: { b: { c: { d: { e() {} } } } } };';
    expect(definesFunctions(unwrapExpression(init(deep).e) as ts.ObjectLiteralExpression)).toBe(false);
  });

  it('reads property-access chains and function types', () => {
    expect(entityPath(init('const x = module.exports.f;').e)).toEqual(['module', 'exports', 'f']);
    expect(entityPath(init('const x = a[0].f;').e)).toBeUndefined();
    const sf = parse('let a: ((x: number) => void); let b: new () => C; let c: string;');
    const types = sf.statements.map((s) => (s as ts.VariableStatement).declarationList.declarations[0]!.type);
    expect(types.map((t) => isFunctionTypeNode(t))).toEqual([true, true, false]);
  });
});
