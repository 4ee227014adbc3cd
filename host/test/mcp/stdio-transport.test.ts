import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { McpStdioTransport } from '../../src/mcp/stdio-transport.js';

async function run(chunks: string[], maxLineBytes = 64) {
  const input = new PassThrough();
  const output = new PassThrough();
  const refused: string[] = [];
  const messages: JSONRPCMessage[] = [];
  const t = new McpStdioTransport(input, output, { maxLineBytes, onRefused: (m) => refused.push(m) });
  t.onmessage = (m) => messages.push(m);
  await t.start();
  for (const c of chunks) input.write(c);
  await new Promise((r) => setImmediate(r));
  await t.close();
  const written = (output.read() as Buffer | null)?.toString() ?? '';
  const replies = written
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: unknown; error: { code: number; message: string } });
  return { messages, refused, replies };
}

describe('McpStdioTransport', () => {
  it('joins a message split across chunks and accepts CRLF line ends', async () => {
    const { messages, replies } = await run(['{"jsonrpc":"2.0",', '"id":1,"method":"ping"}\r', '\n']);
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
    expect(replies).toEqual([]);
  });

  it('answers an unparsable line with -32700 and goes on with the next line in the same chunk', async () => {
    const { messages, replies, refused } = await run(['nope\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n']);
    expect(replies).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error: line 1/) } },
    ]);
    expect(refused).toHaveLength(1);
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 2, method: 'ping' }]);
  });

  it('refuses a line over the limit once, discards the rest of it across chunks, and serves the next', async () => {
    const { messages, replies } = await run([
      '{"jsonrpc":"2.0","id":3,"method":"ping","params":{"x":"',
      'y'.repeat(50),
      'y'.repeat(50),
      '"}}\n',
      '{"jsonrpc":"2.0","id":4,"method":"ping"}\n',
    ]);
    expect(replies).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: expect.stringMatching(/^Invalid Request: line 1 is longer than 64 bytes/) },
      },
    ]);
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 4, method: 'ping' }]);
  });

  it('ignores blank lines', async () => {
    const { messages, replies } = await run(['\n\r\n  \n']);
    expect(messages).toEqual([]);
    expect(replies).toEqual([]);
  });
});
