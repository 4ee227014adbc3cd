import { FULL_ACCESS } from '../retrieval/access-policy.js';
import type { McpServerFactory } from './server.js';
import { McpStdioTransport } from './stdio-transport.js';

/**
 * Serves one MCP session on stdin/stdout with full access (the local user's), until the client
 * closes it. stdout carries the protocol only; a line that is not JSON-RPC is answered there with
 * an error and told to `onRefused` (stderr, for whoever reads the client's logs).
 */
export async function serveStdioSession(factory: McpServerFactory, onRefused: (message: string) => void): Promise<void> {
  const server = factory(FULL_ACCESS);
  const transport = new McpStdioTransport(process.stdin, process.stdout, { onRefused });
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.on('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
