// The files a long-lived graph read for snippets: kept across graph versions, but for the changed ones.
import { describe, expect, it, vi } from 'vitest';
import { countTokens as cl100kCount } from 'gpt-tokenizer/encoding/cl100k_base';
import { codeBlock, codeBlockTokens } from '../../src/retrieval/context-render.js';
import { GraphChangeLog } from '../../src/retrieval/graph-change-log.js';
import { RepoFileReader } from '../../src/retrieval/repo-file-reader.js';
import { contextFixture, rewriteFile } from './context-fixture.js';

const opts = { maxLines: 60, indexedSha256: undefined };

describe('CodeGraph sources', () => {
  it('hands out the same snippet for the same lines until the file is forgotten, and its code block count with it', () => {
    const fx = contextFixture();
    const first = fx.cg.sources.snippet('src/auth/token.ts', 2, 4, opts);
    expect(first).toBeDefined();
    expect(fx.cg.sources.snippet('src/auth/token.ts', 2, 4, opts)).toBe(first);
    expect(fx.cg.sources.snippet('src/auth/token.ts', 2, 4, { ...opts, maxLines: 2 })).not.toBe(first);
    expect(codeBlockTokens(first!)).toBe(cl100kCount(codeBlock(first!.text)));
    fx.cg.sources.forget(['src/auth/token.ts']);
    const again = fx.cg.sources.snippet('src/auth/token.ts', 2, 4, opts);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });

  it('reads again only the files a new graph version changed, when the change log names them, and all of them without one', () => {
    const fx = contextFixture();
    const log = new GraphChangeLog();
    fx.cg.changes = log;
    fx.store.trackGraphChanges((c) => log.add(c));
    fx.cg.snapshot();
    const read = vi.spyOn(RepoFileReader.prototype, 'read');
    const snippets = () => [
      fx.cg.sources.snippet('src/auth/token.ts', 2, 4, opts)?.text,
      fx.cg.sources.snippet('src/http/retry.ts', 1, 4, opts)?.text,
    ];
    snippets();
    expect(read).toHaveBeenCalledTimes(2);

    const edited = {
      path: 'src/http/retry.ts',
      lines: ['export function retryRequest(req: Request) {', '  return sendWithAuth(req); // once', '}'],
      defs: [],
    };
    rewriteFile(fx, edited);
    fx.cg.snapshot();
    read.mockClear();
    const [token, retry] = snippets();
    expect(read.mock.calls.map((c) => c[0])).toEqual(['src/http/retry.ts']);
    expect(retry).toContain('// once');
    expect(token).toContain('verifyToken');

    // Without a change log (another process wrote), every file is read again.
    fx.cg.changes = undefined;
    rewriteFile(fx, edited);
    fx.cg.snapshot();
    read.mockClear();
    snippets();
    expect(read).toHaveBeenCalledTimes(2);
  });
});
