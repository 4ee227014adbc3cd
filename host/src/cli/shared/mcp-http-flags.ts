import { Flags } from '@oclif/core';

/** The flags of `travsr serve` and `travsr daemon start` that make the daemon serve MCP over HTTP. */
export const MCP_HTTP_FLAGS = {
  'mcp-http': Flags.string({
    description:
      'also serve MCP over HTTP at host:port (Streamable HTTP at /mcp, SSE at /sse), answered by the daemon; bearer tokens from `travsr mcp token add`',
  }),
  // No default: oclif would count a default as given, and ask for --mcp-http every time.
  'mcp-no-auth': Flags.boolean({
    dependsOn: ['mcp-http'],
    description: 'with --mcp-http on a loopback address: no tokens, full access',
  }),
};
