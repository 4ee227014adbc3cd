import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { assertSchema, GraphFileParamsSchema } from '@travsr/protocol';
import { FileGraphBuilder, SDK_VERSION } from '../src/index.js';

describe('FileGraphBuilder', () => {
  it('addresses every node at the file and links definitions to their scope', () => {
    const g = new FileGraphBuilder({ corpus: 'github.com/acme/app', path: 'src/stack.lua', language: 'lua' });
    const cls = g.define({ kind: 'class', name: 'Stack' });
    const push = g.define({ kind: 'method', name: 'push', qualifiedName: 'Stack.push', parent: cls });
    g.define({ kind: 'variable', name: 'loose', parent: null });
    g.ref(push, 'calls', 'table.insert');
    expect(g.ref(push, 'calls', '')).toBeUndefined();
    const out = g.build();
    expect(out.nodes.map((n) => [n.vname.path, n.vname.signature])).toEqual([
      ['src/stack.lua', ''],
      ['src/stack.lua', 'Stack'],
      ['src/stack.lua', 'Stack.push'],
      ['src/stack.lua', 'loose'],
    ]);
    expect(out.edges.map((e) => [e.src.signature, e.dst.signature])).toEqual([
      ['', 'Stack'],
      ['Stack', 'Stack.push'],
    ]);
    assertSchema(
      GraphFileParamsSchema,
      { requestId: 1, path: 'src/stack.lua', language: 'lua', phase: 'A', status: 'ok', ...out, diagnostics: out.diagnostics ?? [] },
      'graph',
    );
  });

  it('keeps signatures unique in order of definition', () => {
    const g = new FileGraphBuilder({ corpus: '', path: 'a.lua', language: 'lua' });
    const sigs = ['f', 'f', 'g', 'f', 'f@2'].map((name) => g.define({ kind: 'function', name }).vname.signature);
    expect(sigs).toEqual(['f', 'f@2', 'g', 'f@3', 'f@2@2']);
  });

  it('clips over-long strings and confidence to what the protocol accepts', () => {
    const g = new FileGraphBuilder({ corpus: '', path: 'a.lua', language: 'lua' });
    const n = g.define({ kind: 'function', name: 'x'.repeat(5000), skeleton: 's'.repeat(20000) });
    const e = g.edge(g.fileNode, n, 'calls', { confidence: 7 });
    expect(n.name).toHaveLength(1024);
    expect(n.skeleton).toHaveLength(16384);
    expect(e.confidence).toBe(1);
    expect(e.provenance).toBe('phase-a');
  });
});

describe('SDK_VERSION', () => {
  it('matches sdk/package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(SDK_VERSION).toBe(pkg.version);
  });
});
