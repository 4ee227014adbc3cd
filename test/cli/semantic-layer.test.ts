// The semantic layer end to end, with real ONNX models built in the tests: `travsr model add`
// makes a model directory into a sandboxed model plugin, `travsr embed` embeds a repository's
// definitions incrementally, and `travsr ask` (get_context) finds by meaning a definition that
// shares no word with the question — the vector channel. A model changed after it was
// registered, or vectors of another model, leave retrieval working without the channel and say why.
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  conceptEmbedderWeights,
  crossEncoderDir,
  crossEncoderWeights,
  embedderDir,
  embedderWeights,
} from '@travsr/plugin-model-onnx/testing';
import { generateSigningKey, packPlugin, publishArtifact, serveRegistry, writeSigningKey, type RegistryServer } from '@travsr/registry';
import { assembleModelPlugin } from '@travsr/sdk/model';
import { fileURLToPath } from 'node:url';
import { parse } from 'smol-toml';
import { GitRepo } from '../helpers/git-repo.js';
import { travsr } from '../helpers/run-cli.js';

// One dimension per meaning: "purge outdated" means what `evict … expire` does.
const MEANINGS = conceptEmbedderWeights([
  ['evict', 'purge', 'expire', 'outdated'],
  ['date', 'timestamp', 'parse', 'decode', 'http'],
  ['token', 'verify', 'user', 'session'],
]);
const QUESTION = 'how do I purge outdated stuff';

let repo: GitRepo;
beforeAll(async () => {
  repo = new GitRepo('travsr-semantic-');
  repo
    .write({
      'src/store.py': 'ITEMS = {}\n\ndef drop_stale(key):\n    """expire and evict the key"""\n    del ITEMS[key]\n',
      'src/dates.py': 'def read_http_date(value):\n    """parse an http date"""\n    return value.split(" ")\n',
      'src/auth.py': 'def check_token(token):\n    """verify a user token"""\n    return token.valid\n',
    })
    .commit('app');
  const init = await travsr(['init', repo.root, '--no-hook']);
  expect(init.code, init.stderr).toBe(0);
}, 120_000);
afterAll(() => repo?.dispose());

interface Answer {
  functions: { qualified_name: string; why: string[]; rerank_score?: number }[];
  semantic?: { vector?: { model: string; hits: number; note?: string }; rerank?: { model: string; scored: number; note?: string } };
}

async function ask(question: string): Promise<Answer> {
  const r = await travsr(['ask', question, '--repo', repo.root, '--json'], { env: { TRAVSR_DAEMON: '0' } });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Answer;
}

describe('the vector channel', () => {
  let pluginDir = '';

  it('is off and silent without a model: the question shares no word with the code and finds nothing by meaning', async () => {
    const a = await ask(QUESTION);
    expect(a.semantic).toBeUndefined();
    expect(a.functions[0]?.qualified_name ?? '').not.toContain('drop_stale');
  });

  it('model add makes a model directory a model plugin, registered for its task', async () => {
    // max_tokens 128: the whole of each definition's head and docstring is read.
    const r = await travsr(['model', 'add', embedderDir(MEANINGS, { max_tokens: 128 }), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const added = JSON.parse(r.stdout) as { task: string; id: string; dir: string; dimensions: number; treeHash: string };
    expect(added).toMatchObject({ task: 'embed', id: 'test-model', dimensions: 3 });
    expect(added.treeHash).toMatch(/^sha256:/);
    pluginDir = added.dir;
    expect(JSON.parse(readFileSync(join(pluginDir, 'travsr-plugin.json'), 'utf8'))).toMatchObject({
      kind: 'model',
      model: { task: 'embed' },
    });
    const list = await travsr(['model', 'list']);
    expect(list.stdout).toMatch(/^embed\s+test-model@1\.0\.0 /m);
  });

  it('says the repository has no vectors yet, and answers as before', async () => {
    const a = await ask(QUESTION);
    expect(a.semantic?.vector?.note).toMatch(/no vectors in this repository: run `travsr embed`/);
  });

  it('embed embeds every definition once, then only what changed', async () => {
    const first = await travsr(['embed', '--repo', repo.root, '--json']);
    expect(first.code, first.stderr).toBe(0);
    const s1 = JSON.parse(first.stdout) as { model: string; definitions: number; embedded: number; unchanged: number };
    expect(s1.model).toMatch(/^test-model@1\.0\.0\+[0-9a-f]{12}$/); // the weights' digest: other weights under the same name are another model
    expect(s1.definitions).toBe(3); // drop_stale, read_http_date, check_token
    expect(s1.embedded).toBe(s1.definitions);
    const again = JSON.parse((await travsr(['embed', '--repo', repo.root, '--json'])).stdout) as typeof s1;
    expect(again).toMatchObject({ embedded: 0, unchanged: s1.definitions });

    repo
      .write({ 'src/auth.py': 'def check_token(token):\n    """verify a user session token"""\n    return token.valid\n' })
      .commit('auth');
    expect((await travsr(['index', repo.root])).code).toBe(0);
    const third = JSON.parse((await travsr(['embed', '--repo', repo.root, '--json'])).stdout) as typeof s1;
    expect(third.embedded).toBe(1);
  });

  it('finds by meaning the definition that shares no word with the question', async () => {
    const a = await ask(QUESTION);
    expect(a.semantic?.vector?.model).toMatch(/^test-model@1\.0\.0\+/);
    expect(a.semantic?.vector?.hits).toBeGreaterThan(0);
    expect(a.functions[0]!.qualified_name).toContain('drop_stale');
    expect(a.functions[0]!.why).toContain('its code is close in meaning to the query (vector channel)');
    const text = await travsr(['ask', QUESTION, '--repo', repo.root], { env: { TRAVSR_DAEMON: '0' } });
    expect(text.stdout).toMatch(/Vector channel: \d+ definitions by meaning \(test-model@1\.0\.0\+[0-9a-f]{12}\)/);
  });

  it('vectors of another model are never compared: the channel says so and retrieval goes on', async () => {
    const other = embedderDir(embedderWeights(3, 11), { id: 'other-model' });
    expect((await travsr(['model', 'add', other])).code).toBe(0);
    const wrong = await travsr(['embed', '--model', 'no-such-model', '--repo', repo.root]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('no model plugin no-such-model is installed');
    const a = await ask(QUESTION);
    expect(a.semantic?.vector?.note).toMatch(
      /vectors were made by test-model@1\.0\.0\+[0-9a-f]{12}, not by the registered other-model@1\.0\.0\+[0-9a-f]{12}: run `travsr embed`/,
    );
    expect(a.functions.map((f) => f.why.join(' '))).not.toContainEqual(expect.stringContaining('vector channel'));
    // The lexical and graph channels answer as ever.
    expect((await ask('where is the http date read')).functions[0]!.qualified_name).toContain('read_http_date');
    // Back to the first model for the next test: --model registers it again, and its vectors are all unchanged.
    const back = await travsr(['embed', '--model', 'test-model', '--repo', repo.root, '--json']);
    expect(back.code, back.stderr).toBe(0);
    expect(JSON.parse(back.stdout)).toMatchObject({ embedded: 0, unchanged: 3 });
  });

  it('a model changed after it was registered is refused: no vectors from it, retrieval goes on, embed fails saying why', async () => {
    appendFileSync(join(pluginDir, 'model.onnx'), Buffer.from([0]));
    const a = await ask(QUESTION);
    expect(a.semantic?.vector?.note).toMatch(/could not be started: .*(PLUGIN_TAMPERED|changed|tamper)/i);
    expect((await ask('where is the http date read')).functions[0]!.qualified_name).toContain('read_http_date');
    const embed = await travsr(['embed', '--repo', repo.root]);
    expect(embed.code).not.toBe(0);
    expect(embed.stderr).toMatch(/MODEL_UNAVAILABLE|could not be started/);
  });

  it('rerank install of an embedding model is refused and registers nothing', async () => {
    const before = (await travsr(['model', 'list', '--json'])).stdout;
    const r = await travsr(['rerank', 'install', pluginDir, '--repo', repo.root]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/is an embedding model, not a rerank model .*nothing was registered/);
    expect((await travsr(['model', 'list', '--json'])).stdout).toBe(before);
  });

  it('model remove unregisters it and deletes the plugin it made', async () => {
    const r = await travsr(['model', 'remove', 'embed']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('removed the embed model test-model@1.0.0');
    expect((await ask(QUESTION)).semantic).toBeUndefined();
    const none = await travsr(['model', 'remove', 'embed']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no model is registered as embed');
  });
});

/** plugins/model-onnx's built runner (what `model add` copies into a model plugin). */
const RUNNER = join(fileURLToPath(import.meta.url), '../../../plugins/model-onnx/dist/runner');

describe('the reranker, installed from a registry on 127.0.0.1', () => {
  let server: RegistryServer | undefined;
  afterAll(async () => server?.close());

  it("rerank install takes the registry's cross-encoder, pins it in the lock and registers it", async () => {
    const work = mkdtempSync(join(tmpdir(), 'travsr-rerank-'));
    // A cross-encoder that scores a pair by how often it says "token" (length does not count).
    const plugin = join(work, 'test-reranker');
    assembleModelPlugin(crossEncoderDir(crossEncoderWeights('token', 0)), plugin, RUNNER);
    const packed = await packPlugin(plugin, join(work, 'out'));
    const registry = join(work, 'registry');
    mkdirSync(registry);
    const key = generateSigningKey();
    const keyFile = join(work, 'registry.key');
    await writeSigningKey(keyFile, key);
    await publishArtifact(registry, packed.file, key);
    server = await serveRegistry({ dir: registry });
    for (const [k, v] of [
      ['registry.url', server.url],
      ['registry.trustedKeys', `${keyFile}.pub`],
    ] as const)
      expect((await travsr(['config', 'set', k, v, '--global'])).code).toBe(0);

    // A registry serving the artifact with a byte changed: refused, nothing installed.
    const tampered = join(work, 'tampered');
    cpSync(registry, tampered, { recursive: true });
    const tgz = join(
      tampered,
      'artifacts',
      readdirSync(join(tampered, 'artifacts')).find((f) => f.startsWith('test-reranker-') && f.endsWith('.tgz'))!,
    );
    const bytes = readFileSync(tgz);
    bytes[bytes.length - 10]! ^= 0xff;
    writeFileSync(tgz, bytes);
    const bad = await serveRegistry({ dir: tampered });
    try {
      const refused = await travsr(['rerank', 'install', '--repo', repo.root], { env: { TRAVSR_REGISTRY_URL: bad.url } });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/ARTIFACT_HASH_MISMATCH/);
      expect((await travsr(['model', 'list'])).stdout).not.toContain('test-reranker');
    } finally {
      await bad.close();
    }

    const r = await travsr(['rerank', 'install', '--repo', repo.root, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const lock = parse(readFileSync(join(repo.root, '.travsr', 'plugins.lock'), 'utf8')) as {
      plugins: Record<string, { version: string; sha256: string; treeHash: string }>;
    };
    expect(lock.plugins['test-reranker']).toMatchObject({ version: '1.0.0', sha256: packed.sha256, treeHash: packed.treeHash });
    expect((await travsr(['model', 'list'])).stdout).toMatch(/^rerank\s+test-reranker@1\.0\.0 /m);
  });

  it('orders the shortlist as the model dictates, reporting each score', async () => {
    const a = await ask('read the http date value of a token');
    expect(a.semantic?.rerank).toMatchObject({ model: expect.stringMatching(/^test-reranker@1\.0\.0\+/) as unknown });
    expect(a.semantic?.rerank?.scored).toBeGreaterThanOrEqual(2);
    // Lexically read_http_date is first (check_token second); the model favours the definition that says "token".
    expect(a.functions[0]!.qualified_name).toContain('check_token');
    expect(a.functions[0]!.why[0]).toMatch(/^the reranker scored it /);
    const scores = a.functions.filter((f) => f.rerank_score !== undefined).map((f) => f.rerank_score!);
    expect(scores).toEqual([...scores].sort((x, y) => y - x));
    const text = await travsr(['ask', 'read the http date value of a token', '--repo', repo.root], { env: { TRAVSR_DAEMON: '0' } });
    expect(text.stdout).toMatch(/Reranked: \d+ candidates by test-reranker@1\.0\.0/);
  });

  it('a reranker whose files changed is refused: the unreranked order, with a note', async () => {
    const dir = (parse(readFileSync(join(process.env.TRAVSR_HOME!, 'lang.toml'), 'utf8')) as { plugins: Record<string, { dir: string }> })
      .plugins['test-reranker']!.dir;
    writeFileSync(join(dir, 'model.onnx'), 'garbage');
    const a = await ask('read the http date value of a token');
    expect(a.semantic?.rerank?.note).toMatch(/could not be started/);
    expect(a.functions[0]!.qualified_name).toContain('read_http_date');
    expect(a.functions[0]!.rerank_score).toBeUndefined();
  });
});
