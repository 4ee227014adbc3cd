import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// the published entry points, as the README imports them (built by `npx tsc -b`)
import { encodeFrame, FrameDecoder } from '@travsr/protocol';
import { Connection } from '@travsr/protocol/node';
import { PROTOCOL_DIR } from './helpers/corpus.js';

describe('README.md', () => {
  it('runs the usage example', async () => {
    // #region readme-example
    // Frames: encode one message; decode a byte stream cut anywhere.
    const frame = encodeFrame({ kind: 'request', id: 1, method: 'ping', params: { nonce: 7 } });
    const decoder = new FrameDecoder({ maxFrameBytes: 1 << 20 });
    const messages = [...decoder.push(frame.subarray(0, 3)), ...decoder.push(frame.subarray(3))];
    // messages: [{ kind: 'request', id: 1, method: 'ping', params: { nonce: 7 } }]

    // Connections: a host and a plugin over two pipes (a child's stdio in real use).
    const toPlugin = new PassThrough();
    const toHost = new PassThrough();
    const plugin = new Connection(toPlugin, toHost, { role: 'plugin' });
    plugin.onRequest('ping', (params) => params); // echoes the nonce
    const host = new Connection(toHost, toPlugin, { role: 'host' });
    const pong = await host.request('ping', { nonce: 7 }, { timeoutMs: 1000 });
    // pong: { nonce: 7 }
    host.close();
    plugin.close();
    // #endregion
    expect(messages).toEqual([{ kind: 'request', id: 1, method: 'ping', params: { nonce: 7 } }]);
    expect(pong).toEqual({ nonce: 7 });
  });

  it('shows exactly the example this test runs', () => {
    const readme = readFileSync(join(PROTOCOL_DIR, 'README.md'), 'utf8');
    const block = /```ts readme-example\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const shown = block.split('\n').filter((l) => !l.startsWith('import ') && l.trim() !== '');
    const self = readFileSync(fileURLToPath(import.meta.url), 'utf8');
    const region = /\/\/ #region readme-example\n([\s\S]*?)\n\s*\/\/ #endregion/.exec(self)?.[1] ?? '';
    const ran = region
      .split('\n')
      .map((l) => l.replace(/^ {4}/, ''))
      .filter((l) => l.trim() !== '');
    expect(shown).toEqual(ran);
    expect(block).toContain("from '@travsr/protocol/node'");
  });
});
