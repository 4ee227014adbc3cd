// The daemon answers get_context with the semantic layer: the question embedded by the
// registered model (its sandboxed session kept warm in the daemon), the vector channel over the
// repository's vectors; and `travsr embed` is seen at once (the query cache keys on the vectors).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conceptEmbedderWeights, embedderDir } from '@travsr/plugin-model-onnx/testing';
import { settled, stopTestDaemon } from '../helpers/daemon.js';
import { GitRepo } from '../helpers/git-repo.js';
import { travsr } from '../helpers/run-cli.js';

const QUESTION = 'how do I purge outdated stuff';
let repo: GitRepo;

beforeAll(async () => {
  repo = new GitRepo('travsr-daemon-semantic-');
  repo
    .write({
      'src/store.py': 'ITEMS = {}\n\ndef drop_stale(key):\n    """expire and evict the key"""\n    del ITEMS[key]\n',
      'src/dates.py': 'def read_http_date(value):\n    """parse an http date"""\n    return value.split(" ")\n',
    })
    .commit('app');
  expect((await travsr(['init', repo.root, '--no-hook'])).code).toBe(0);
  const meanings = conceptEmbedderWeights([
    ['evict', 'purge', 'expire', 'outdated'],
    ['date', 'timestamp', 'parse', 'decode', 'http'],
  ]);
  expect((await travsr(['model', 'add', embedderDir(meanings, { max_tokens: 128 })])).code).toBe(0);
  const start = await travsr(['daemon', 'start', '--repo', repo.root]);
  expect(start.code, start.stderr).toBe(0);
  await settled(repo.root);
}, 180_000);

afterAll(async () => {
  await stopTestDaemon();
  repo.dispose();
});

interface Answer {
  functions: { qualified_name: string }[];
  semantic?: { vector?: { hits: number; note?: string } };
}

async function ask(): Promise<Answer> {
  const r = await travsr(['ask', QUESTION, '--repo', repo.root, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Answer;
}

describe('the daemon and the semantic layer', () => {
  it('says there are no vectors, then — once embedded — finds by meaning, not from a stale cache', async () => {
    const before = await ask();
    expect(before.semantic?.vector?.note).toMatch(/no vectors in this repository/);
    const embed = await travsr(['embed', '--repo', repo.root]);
    expect(embed.code, embed.stderr).toBe(0);
    const after = await ask();
    expect(after.semantic?.vector?.hits).toBeGreaterThan(0);
    expect(after.functions[0]!.qualified_name).toContain('drop_stale');
    // Asked again: the same answer, from the daemon's cache (the noted answer before was not kept).
    expect((await ask()).functions[0]!.qualified_name).toContain('drop_stale');
    const status = await travsr(['daemon', 'status', '--json']);
    expect(JSON.stringify(JSON.parse(status.stdout))).toMatch(/"hits":1\b/);
  });
});
