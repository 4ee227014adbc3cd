// The warm-up a fresh plugin process runs after `initialize`: it must exercise the real path.
import { describe, expect, it } from 'vitest';
import { PythonSyntax } from '../src/syntax/python-syntax.js';
import { WARM_UP_SAMPLE, warmUp } from '../src/syntax/warm-up.js';
import { GRAMMAR } from './helpers/analyze-project.js';

describe('warm-up', () => {
  it('reads a sample that parses cleanly and has the constructs files have (so their code is compiled before the first file)', async () => {
    const syntax = new PythonSyntax({ grammar: GRAMMAR });
    await syntax.initialize();
    const ir = syntax.read('warm_up.py', WARM_UP_SAMPLE);
    expect(ir.parseError).toBeUndefined();
    expect(ir.defs.length).toBeGreaterThan(15);
    expect(ir.imports.length).toBeGreaterThan(5);
    expect(ir.calls.length).toBeGreaterThan(20);
    expect(() => warmUp(syntax)).not.toThrow();
  });

  it('never throws, even before the grammar is loaded', () => {
    expect(() => warmUp(new PythonSyntax({ grammar: GRAMMAR }))).not.toThrow();
  });
});
