import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { PROTOCOL_DIR } from './helpers/corpus.js';

/*
 * Plugins bundle the SDK, and with it this package, into one ES module file that runs with no
 * node_modules (the sandbox binds none). The built package (`npx tsc -b`) must survive that:
 * the precompiled validators, and the libraries it loads on demand with `require` (ajv for a
 * caller's own schema, BLAKE3 for node ids), all inside the bundle.
 */

const work = mkdtempSync(join(tmpdir(), 'travsr-protocol-bundle-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ENTRY = `
import { assertEnvelope, compileSchema, describeSchemaErrors, encodeFrame, FrameDecoder, nodeId, parseManifest } from ${JSON.stringify(join(PROTOCOL_DIR, 'dist', 'index.js'))};
import { Connection } from ${JSON.stringify(join(PROTOCOL_DIR, 'dist', 'node', 'index.js'))};
const out = {};
try { assertEnvelope({ kind: 'request', id: -1, method: 'ping' }); } catch (e) { out.envelope = e.message; }
try { parseManifest('{"id":"x"}'); } catch (e) { out.manifest = e.message; }
const own = compileSchema({ type: 'object', properties: { n: { type: 'integer', minimum: 2 } } });
out.own = [own({ n: 3 }), own({ n: 1 }), describeSchemaErrors(own.errors)];
out.nodeId = nodeId({ corpus: '', root: '', path: '', language: 'x', signature: '' });
out.frame = new FrameDecoder({ maxFrameBytes: 1 << 20 }).push(encodeFrame({ kind: 'request', id: 1, method: 'ping' }));
out.connection = typeof Connection;
console.log(JSON.stringify(out));
`;

describe('@travsr/protocol bundled by esbuild (as plugins bundle it)', () => {
  it('validates, compiles a schema of its own, hashes and frames with no node_modules', async () => {
    writeFileSync(join(work, 'entry.mjs'), ENTRY);
    await build({
      entryPoints: [join(work, 'entry.mjs')],
      outfile: join(work, 'out', 'main.mjs'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      // as @travsr/sdk/build bundles plugins: msgpackr's optional native decoder stays out, and
      // bundled CommonJS (BLAKE3 needs node:crypto) gets a `require`, which an ES module lacks
      external: ['msgpackr-extract'],
      banner: { js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);" },
      logLevel: 'silent',
    });
    const run = spawnSync(process.execPath, [join(work, 'out', 'main.mjs')], { cwd: join(work, 'out'), encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      envelope: expect.stringMatching(/^frame envelope failed validation: \/id /),
      manifest: "travsr-plugin.json is invalid: / must have required property 'version'",
      own: [true, false, '/n must be >= 2'],
      nodeId: 'bc5c37a3d79934dc17b2248385ef8169f71cda30d2c395fb76a065fada349a32',
      frame: [{ kind: 'request', id: 1, method: 'ping' }],
      connection: 'function',
    });
  });
});
