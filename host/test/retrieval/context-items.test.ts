// Step 5 of get_context: the items (reasons, snippets, tokens) and the knapsack's choice, on real files.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  chooseItems,
  contextItems,
  itemReasons,
  moreNodes,
  showableDefinitions,
  type ItemReasons,
} from '../../src/retrieval/context-items.js';
import { renderItem } from '../../src/retrieval/context-render.js';
import { lexicalEvidence } from '../../src/retrieval/lexical-evidence.js';
import { structuralCore } from '../../src/retrieval/node-scoring.js';
import { countTokens } from '../../src/retrieval/token-count.js';
import { contextFixture } from './context-fixture.js';

function reasonsFor(
  f: ReturnType<typeof contextFixture>,
  query: string,
  relevance = new Map<number, number>(),
  tree = new Set<number>(),
): ItemReasons {
  return { evidence: lexicalEvidence(f.g, query), relevance, core: structuralCore(f.g, relevance), tree };
}

describe('showableDefinitions', () => {
  it('keeps definitions with source lines, then adds the scored tree nodes not among them', () => {
    const f = contextFixture();
    const { dense } = f;
    const top: [number, number][] = [
      [dense('src/auth/token.ts'), 3],
      [dense('verifyToken'), 2],
    ];
    const score = new Map([...top, [dense('decodeClaims'), 0.5] as [number, number]]);
    const tree = new Set([dense('verifyToken'), dense('decodeClaims'), dense('sendWithAuth')]);
    expect(showableDefinitions(f.g, top, tree, score)).toEqual([
      [dense('verifyToken'), 2],
      [dense('decodeClaims'), 0.5],
    ]);
  });
});

describe('contextItems', () => {
  it('shows each definition with its code, a class by its head, and costs what it renders to', () => {
    const f = contextFixture();
    const { dense } = f;
    const items = contextItems(
      f.g,
      [
        [dense('verifyToken'), 0.123456],
        [dense('Shape'), 0.5],
      ],
      reasonsFor(f, 'verifyToken'),
    );
    const [verify, shape] = items;
    expect(verify).toMatchObject({
      dense: dense('verifyToken'),
      score: 0.1235,
      snippet: { startLine: 2, endLine: 4, stale: false, truncated: false },
    });
    expect(verify!.snippet!.text).toContain('return decodeClaims(token);');
    expect(verify!.tokens).toBe(countTokens(renderItem(verify!)));
    expect(shape!.snippet).toMatchObject({ startLine: 1, truncated: true });
    expect(shape!.snippet!.text.split('\n').length).toBeLessThanOrEqual(20);
    expect(shape!.why).toEqual(['ranked by graph relevance']);
  });

  it('marks the code of a file that changed since it was indexed', () => {
    const f = contextFixture();
    writeFileSync(join(f.root, 'src/auth/token.ts'), '// edited\n'.repeat(10));
    const [item] = contextItems(f.g, [[f.dense('verifyToken'), 1]], reasonsFor(f, 'x'));
    expect(item!.snippet!.stale).toBe(true);
  });
});

describe('itemReasons', () => {
  it('says why: the lexical match first, then the graph, the tree and the file', () => {
    const f = contextFixture();
    const { dense } = f;
    const core = structuralCore(f.g, new Map());
    const r: ItemReasons = {
      evidence: {
        nodes: new Map(),
        fileText: new Map([['src/http/client.ts', 0.8]]),
        namedFiles: new Set(['src/http/client.ts']),
        quotedFiles: new Map(),
        nameWordFiles: new Map(),
        definitionText: () => 0,
        definitionIdentifiers: new Map(),
        quotedDefinitions: new Map(),
        vector: new Map(),
        frameSites: [],
      },
      relevance: new Map([[dense('sendWithAuth'), 0.5]]),
      core,
      tree: new Set([dense('sendWithAuth')]),
    };
    const ref = {
      id: '',
      kind: 'function',
      name: 'sendWithAuth',
      qualifiedName: null,
      corpus: '',
      path: 'src/http/client.ts',
      startLine: 1,
      endLine: 4,
    };
    const why = itemReasons(dense('sendWithAuth'), ref, r);
    expect(why).toEqual([
      'connected to the matches in the graph',
      'links other results (Steiner tree)',
      'its file matches the query text',
      'its file is named in the query',
    ]);
    expect(
      itemReasons(dense('sendWithAuth'), ref, { ...r, core: { shells: new Uint32Array(f.g.snap.nodeCount).fill(4), maxShell: 4 } }),
    ).toContain('structural core (k-shell 4)');
    const lexical = reasonsFor(f, 'verifyToken', new Map([[dense('verifyToken'), 1]]), new Set([dense('verifyToken')]));
    const named = itemReasons(dense('verifyToken'), { ...ref, name: 'verifyToken', path: 'src/auth/token.ts' }, lexical);
    expect(named[0]).toBe('its name matches the query');
    expect(named).not.toContain('links other results (Steiner tree)');
    expect(named).not.toContain('connected to the matches in the graph');
  });
});

describe('chooseItems', () => {
  it('fits the items in the capacity, best first, and drops an item nested in a chosen whole one', () => {
    const f = contextFixture();
    const { dense } = f;
    const items = contextItems(
      f.g,
      [
        [dense('verifyToken'), 0.9],
        [dense('decodeClaims'), 0.8],
        [dense('sendWithAuth'), 0.7],
      ],
      reasonsFor(f, 'x'),
    );
    const all = chooseItems(items, 10_000);
    expect(all.exact).toBe(true);
    expect(all.chosen.map((c) => c.node.name)).toEqual(['verifyToken', 'decodeClaims', 'sendWithAuth']);
    const one = chooseItems(items, items[0]!.tokens);
    expect(one.chosen.map((c) => c.node.name)).toEqual(['verifyToken']);
    expect(chooseItems(items, 0).chosen).toEqual([]);

    // The whole file's function and a function inside its lines: the outer one is kept.
    const nested = contextFixture([
      {
        path: 'n.ts',
        lines: ['function outer() {', '  function inner() {}', '}'],
        defs: [
          { name: 'outer', lines: [1, 3] },
          { name: 'inner', lines: [2, 2] },
        ],
      },
    ]);
    const both = contextItems(
      nested.g,
      [
        [nested.dense('inner'), 1],
        [nested.dense('outer'), 0.5],
      ],
      reasonsFor(nested, 'x'),
    );
    expect(chooseItems(both, 10_000).chosen.map((c) => c.node.name)).toEqual(['outer']);
  });
  it('takes the leading definitions first, in their order, each while it fits in half the capacity', () => {
    const f = contextFixture();
    const { dense } = f;
    const items = contextItems(
      f.g,
      [
        [dense('verifyToken'), 0.9],
        [dense('decodeClaims'), 0.8],
        [dense('sendWithAuth'), 0.1],
      ],
      reasonsFor(f, 'x'),
    );
    const [verify, decode, send] = items;
    // Room for two items: the knapsack alone takes the two best; sendWithAuth leads, so it is taken first.
    const capacity = Math.max(2 * send!.tokens, verify!.tokens + decode!.tokens, send!.tokens + verify!.tokens);
    expect(chooseItems(items, verify!.tokens + decode!.tokens).chosen.map((c) => c.node.name)).toEqual(['verifyToken', 'decodeClaims']);
    const led = chooseItems(items, capacity, [dense('sendWithAuth')]);
    expect(led.chosen.map((c) => c.node.name)).toContain('sendWithAuth');
    expect(led.chosen.reduce((n, c) => n + c.tokens, 0)).toBeLessThanOrEqual(capacity);
    // A leading item larger than half the capacity is left to the knapsack.
    expect(chooseItems(items, send!.tokens, [dense('sendWithAuth')]).chosen.map((c) => c.node.name)).not.toContain('sendWithAuth');
  });
});

describe('moreNodes', () => {
  it('lists the next ranked nodes that were not chosen, files left out', () => {
    const f = contextFixture();
    const { dense } = f;
    const ranked: [number, number][] = [
      [dense('verifyToken'), 0.9],
      [dense('src/auth/token.ts'), 0.85],
      [dense('decodeClaims'), 0.812345],
    ];
    const chosen = contextItems(f.g, [[dense('verifyToken'), 0.9]], reasonsFor(f, 'x'));
    expect(moreNodes(f.g, ranked, chosen)).toEqual([{ node: expect.objectContaining({ name: 'decodeClaims' }) as unknown, score: 0.8123 }]);
  });
});
