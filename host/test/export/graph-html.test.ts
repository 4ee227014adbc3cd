import { describe, expect, it } from 'vitest';
import { renderGraphHtml } from '../../src/export/graph-html.js';
import type { Subgraph } from '../../src/export/subgraph.js';
import type { ExportNode } from '../../src/store/index.js';

const hostile = '</script><script>alert(1)</script><!--';

function sub(): Subgraph {
  const node = (id: string, name: string, signature = ''): ExportNode => ({
    type: 'node',
    id: id,
    kind: 'function',
    name,
    qualified_name: `m.${name}`,
    path: 'm.py',
    language: 'python',
    signature,
    start_line: 3,
    start_col: 0,
    end_line: 9,
    end_col: 0,
  });
  return {
    nodes: [node('F', 'f'), node('G', hostile, `def g(): "${hostile}\u2028"`)],
    edges: [{ type: 'edge', src: 'F', dst: 'G', kind: 'calls', confidence: 0.5, provenance: 'phase-a' }],
    focus: ['F'],
    depthOf: new Map([
      ['F', 0],
      ['G', 1],
    ]),
    leftOut: 0,
  };
}

/** The data the page draws, read back from its JSON script element. */
function dataOf(html: string) {
  const m = /<script type="application\/json" id="graph-data">([\s\S]*?)<\/script>/.exec(html);
  return JSON.parse(m![1]!) as { nodes: { name: string; signature: string; focus: boolean }[]; edges: { resolved: boolean }[] };
}

describe('renderGraphHtml', () => {
  it('holds the graph drawing library and the data, and loads nothing from elsewhere', () => {
    const html = renderGraphHtml(sub(), { title: 'Travsr graph: m.f' });
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('cytoscape');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|@import/i);
    expect(html).toContain(`content="default-src 'none'; script-src 'unsafe-inline'`);
    const data = dataOf(html);
    expect(data.nodes.map((n) => n.focus)).toEqual([true, false]);
    expect(data.edges[0]!.resolved).toBe(false); // name-matched: drawn dashed
  });

  it('keeps names and signatures from the repository as data, never as markup', () => {
    const html = renderGraphHtml(sub(), { title: `Travsr graph: ${hostile}` });
    // Three script elements (library, data, page) and no more: nothing in the data ends one early.
    expect(html.match(/<script/g)).toHaveLength(3);
    expect(html.match(/<\/script>/g)).toHaveLength(3);
    expect(html).toContain('<title>Travsr graph: &#60;/script&#62;');
    const data = dataOf(html);
    expect(data.nodes[1]!.name).toBe(hostile);
    expect(data.nodes[1]!.signature).toBe(`def g(): "${hostile}\u2028"`);
  });
});
