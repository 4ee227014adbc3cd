// A module's interface: which edits change what importers can see, name by name.
import { beforeAll, describe, expect, it } from 'vitest';
import { moduleInterface, type ModuleInterface } from '../src/resolve/module-interface.js';
import { PythonSyntax } from '../src/syntax/python-syntax.js';
import { GRAMMAR } from './helpers/analyze-project.js';

const BASE = `"""Text helpers."""
import re
from .base import Base

DEFAULT = 10


def slugify(value):
    cleaned = value.strip()
    return cleaned.lower()


def make_builder(kind):
    builder = Builder(kind)
    return builder


class Builder(Base):
    limit = DEFAULT

    def __init__(self, kind):
        self.kind = kind

    def build(self):
        return Part(self.kind)


class Part:
    def render(self) -> str:
        return str(self)
`;

let syntax: PythonSyntax;
beforeAll(async () => {
  syntax = new PythonSyntax({ grammar: GRAMMAR });
  await syntax.initialize();
});

const iface = (text: string): ModuleInterface => moduleInterface(syntax.read('pkg/text.py', text));

/** The keys whose digest differs (added and removed ones included), sorted. */
function changed(before: string, after: string): string[] {
  const a = iface(before);
  const b = iface(after);
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => a[k] !== b[k]).sort();
}

describe('moduleInterface', () => {
  it('has a key per module-level name, class member and instance attribute, and the whole module', () => {
    const keys = Object.keys(iface(BASE)).sort();
    expect(keys).toEqual(expect.arrayContaining(['', 'DEFAULT', 'slugify', 'make_builder', 'Builder', 'Part', 're', 'Base']));
    expect(keys).toEqual(expect.arrayContaining(['Builder.limit', 'Builder.__init__', 'Builder.build', 'Builder.kind', 'Part.render']));
    expect(Object.values(iface(BASE)).every((d) => /^[0-9a-f]{16}$/.test(d))).toBe(true);
  });

  it('is the same for the same text, and after edits importers cannot see', () => {
    expect(changed(BASE, BASE)).toEqual([]);
    // A comment, blank lines, a statement in a body that no return reads: nothing.
    expect(changed(BASE, `# header\n\n${BASE}`)).toEqual([]);
    expect(changed(BASE, BASE.replace('    cleaned = value.strip()\n', '    counter = 1\n    cleaned = value.strip()\n'))).toEqual([]);
    expect(changed(BASE, BASE.replace('        self.kind = kind\n', '        print(kind)\n        self.kind = kind\n'))).toEqual([]);
  });

  it('changes only at a new name when a function is added', () => {
    expect(changed(BASE, `${BASE}\n\ndef added(value):\n    return str(value)\n`)).toEqual(['added']);
  });

  it('changes at a function when what its return reads changes, through local bindings', () => {
    expect(changed(BASE, BASE.replace('cleaned = value.strip()', 'cleaned = Part()'))).toEqual(['slugify']);
    expect(changed(BASE, BASE.replace('def slugify(value):', 'def slugify(value, sep="-"):'))).toEqual(['slugify']);
  });

  it('carries a change through the names of the module that depend on it', () => {
    // make_builder returns a Builder: a new base of Builder changes what make_builder's callers get.
    const after = BASE.replace('class Builder(Base):', 'class Builder(Base, dict):');
    expect(changed(BASE, after)).toEqual(expect.arrayContaining(['Builder', 'make_builder']));
    expect(changed(BASE, after)).not.toContain('slugify');
    // build() returns Part(...): Part's members are reached through it.
    const render = BASE.replace('def render(self) -> str:', 'def render(self) -> bytes:');
    expect(changed(BASE, render)).toEqual(expect.arrayContaining(['Part.render']));
    expect(changed(BASE, render)).not.toContain('slugify');
  });

  it('carries a member change to whatever reads an attribute of that name, whichever class it is on', () => {
    const before = [
      'class A:',
      '    def get(self):',
      '        return 1',
      '',
      'class B:',
      '    def get(self):',
      '        return "b"',
      '',
      'def use(x):',
      '    return x.get()',
      '',
      'def other(x):',
      '    return x.put()',
      '',
    ].join('\n');
    const after = before.replace('        return 1', '        return B()');
    expect(changed(before, after)).toEqual(expect.arrayContaining(['A.get', 'use']));
    expect(changed(before, after)).not.toContain('other');
    expect(changed(before, after)).not.toContain('B.get');
  });

  it('changes at an instance attribute when its value changes', () => {
    expect(changed(BASE, BASE.replace('self.kind = kind', 'self.kind = Part()'))).toEqual(expect.arrayContaining(['Builder.kind']));
  });

  it('changes at a name that shadows a builtin a return reads', () => {
    const after = `${BASE}\n\ndef str(value):\n    return value\n`;
    expect(changed(BASE, after)).toEqual(expect.arrayContaining(['str', 'Part.render']));
  });

  it('changes the whole-module key for star imports and __all__', () => {
    expect(changed(BASE, `from .other import *\n${BASE}`)).toContain('');
    expect(changed(BASE, `${BASE}\n__all__ = ["slugify"]\n`)).toContain('');
  });

  it('sees a module-level reordering that changes which binding a use sees', () => {
    const before = 'X = 1\nY = X\nX = "s"\n';
    const after = 'X = 1\nX = "s"\nY = X\n';
    expect(changed(before, after)).toContain('Y');
  });
});
