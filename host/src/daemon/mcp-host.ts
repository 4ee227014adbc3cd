import { PassThrough, Writable } from 'node:stream';
import type * as grpc from '@grpc/grpc-js';
import type { Logger } from '../log/logger.js';
import { mcpServerFactory, type ToolExecutor } from '../mcp/server.js';
import { McpStdioTransport } from '../mcp/stdio-transport.js';
import { FULL_ACCESS } from '../retrieval/access-policy.js';
import type { ToolResult } from '../tools/tool-runner.js';
import type { DaemonCore } from './daemon-core.js';

/**
 * Runs an MCP session's tool calls on the daemon: its warm graphs (those of `roots()`, read at
 * each call) and its query cache, within the caller's access policy.
 */
export function daemonToolExecutor(core: DaemonCore, roots: () => readonly string[]): ToolExecutor {
  return async (name, args, policy, signal): Promise<ToolResult> => {
    const r = await core.callTool(
      {
        tool: name,
        argumentsJson: JSON.stringify(args ?? {}),
        repos: [...roots()],
        fullAccess: policy.corpora === '*',
        corpora: policy.corpora === '*' ? [] : [...policy.corpora],
        groups: [...policy.groups],
        timeoutMs: 0,
      },
      signal,
    );
    return { text: r.text, structured: JSON.parse(r.structuredJson) as Record<string, unknown>, traceId: r.traceId, isError: r.isError };
  };
}

/** One message of an MCP session relayed over the control plane. */
export interface McpMessage {
  json: string;
}

/**
 * Hosts one MCP session in the daemon for `travsr mcp --stdio`, which relays its client's
 * messages over a gRPC stream: the same MCP server and line transport as in-process (bad lines
 * answered with JSON-RPC errors), every tool call answered by the daemon's warm graphs and query
 * cache, limited to `roots`, with the local user's full access.
 */
export function hostMcpSession(
  core: DaemonCore,
  roots: readonly string[],
  call: grpc.ServerDuplexStream<McpMessage, McpMessage>,
  logger: Logger,
): void {
  const input = new PassThrough();
  let pending = '';
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      pending += chunk.toString('utf8');
      let newline = pending.indexOf('\n');
      while (newline !== -1) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        if (line !== '') call.write({ json: line });
        newline = pending.indexOf('\n');
      }
      done();
    },
  });
  call.on('data', (m: McpMessage) => input.write(`${m.json}\n`));
  call.on('end', () => input.end());
  call.on('cancelled', () => input.end());
  call.on('error', () => input.end());
  const server = mcpServerFactory(daemonToolExecutor(core, () => roots))(FULL_ACCESS);
  const transport = new McpStdioTransport(input, output, { onRefused: (m) => logger.log('info', `daemon: mcp session: ${m}`) });
  input.on('end', () => {
    void server.close().finally(() => call.end());
  });
  server.connect(transport).catch((e: unknown) => {
    logger.log('warn', `daemon: an MCP session failed to start: ${(e as Error).message}`);
    call.end();
  });
}
