// Counting the definitions' tokens ahead of the questions: all of them, then only what changed.
import { describe, expect, it } from 'vitest';
import { FULL_ACCESS } from '../../src/retrieval/access-policy.js';
import { getContext } from '../../src/retrieval/context-assembly.js';
import { definitionSnippet } from '../../src/retrieval/context-items.js';
import { codeBlock } from '../../src/retrieval/context-render.js';
import { ItemTokenWarmer } from '../../src/retrieval/item-token-warmer.js';
import { SourceReader } from '../../src/retrieval/source-snippets.js';
import { tokenCountMemo } from '../../src/retrieval/token-count.js';
import { contextFixture, FILES, rewriteFile } from './context-fixture.js';

/** The code blocks get_context would show for the definitions of the graph, by path. */
function codeBlocks(fx: ReturnType<typeof contextFixture>): Map<string, string[]> {
  const snap = fx.cg.snapshot();
  const shas = fx.cg.fileSha256s();
  const reader = new SourceReader(fx.root);
  const blocks = new Map<string, string[]>();
  for (let d = 0; d < snap.nodeCount; d++) {
    if (snap.kinds[d] === 'file' || snap.kinds[d] === 'external') continue;
    const path = snap.paths[d]!;
    const s = definitionSnippet(
      reader,
      { path, kind: snap.kinds[d]!, startLine: snap.startLines[d]!, endLine: snap.endLines[d]! },
      shas.get(path),
    );
    if (!blocks.has(path)) blocks.set(path, []);
    blocks.get(path)!.push(codeBlock(s!.text));
  }
  return blocks;
}

describe('ItemTokenWarmer', () => {
  it("counts every definition's code block in slices and remembers each count", () => {
    // A definition long enough to be counted (and remembered) on its own, in a file of its own.
    const long = Array.from({ length: 40 }, (_, i) => `  const warmedValue${i} = compute(${i}) + offset;`);
    const fx = contextFixture([
      ...FILES,
      {
        path: 'src/warm/long.ts',
        lines: ['export function warmedLongFunction() {', ...long, '}'],
        defs: [{ name: 'warmedLongFunction', lines: [1, 42] }],
      },
    ]);
    const warmer = new ItemTokenWarmer(fx.cg);
    let steps = 1;
    while (!warmer.step(0)) steps++;
    const blocks = codeBlocks(fx);
    const definitions = [...blocks.values()].flat();
    // A step of 0 ms still counts one definition: one step per definition, and one to finish.
    expect(steps).toBe(definitions.length + 1);
    expect(warmer.counts).toEqual({ files: blocks.size, definitions: definitions.length });
    for (const block of definitions) if (block.length >= 32) expect(tokenCountMemo.has(block)).toBe(true);
    expect(warmer.step(5)).toBe(true);
    expect(warmer.counts.definitions).toBe(definitions.length);
    // The answer counts exactly as without warming: its total is the count of its text.
    const r = getContext(fx.cg, 'warmed long function offset', { policy: FULL_ACCESS, budget: 2000 });
    expect(r.items.some((it) => it.node.name === 'warmedLongFunction')).toBe(true);
  });

  it('counts again only the files whose content changed when the graph moves', () => {
    const fx = contextFixture();
    const warmer = new ItemTokenWarmer(fx.cg);
    while (!warmer.step(5));
    const before = { ...warmer.counts };
    // src/http/retry.ts is edited and indexed again: the graph version moves.
    const lines = [
      'export function retryRequest(req: Request) {',
      '  console.warn("retrying the request once more, after a pause");',
      '  return sendWithAuth(req);',
      '}',
    ];
    rewriteFile(fx, { path: 'src/http/retry.ts', lines, defs: [{ name: 'retryRequest', lines: [1, 4] }] });
    while (!warmer.step(5));
    expect(warmer.counts).toEqual({ files: before.files + 1, definitions: before.definitions + 1 });
    expect(tokenCountMemo.has(codeBlock(lines.join('\n')))).toBe(true);
  });
});
