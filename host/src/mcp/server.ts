import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { AccessPolicy } from '../retrieval/access-policy.js';
import { TOOL_DEFINITIONS } from '../tools/tool-definitions.js';
import type { ToolResult } from '../tools/tool-runner.js';
import { HOST_VERSION } from '../version.js';

/** A new MCP Server (low-level SDK Server with tools registered) that answers as `policy` allows. */
export type McpServerFactory = (policy: AccessPolicy) => Server;

const INSTRUCTIONS =
  'Travsr serves a code graph of the repository: definitions, calls, imports, inheritance and type references. ' +
  'Start with get_context for a question or task; use get_callers, get_dependencies, get_blast_radius and ' +
  'get_execution_path to follow the graph, get_definition and get_file_outline to read code. Every answer says ' +
  'how complete the graph is: name-matched (Phase A) edges are marked and a missing edge is not proof of absence.';

/** Runs a tool call (in-process, or on a {@link ToolPool} worker with timeout and cancellation). */
export type ToolExecutor = (name: string, args: unknown, policy: AccessPolicy, signal: AbortSignal) => Promise<ToolResult>;

/**
 * The factory of Travsr MCP servers: the nine tools with their JSON Schemas, run by
 * `execute`; every result is text plus structured content naming its trace id. One server
 * per client session, bound to that client's access policy. A client's
 * `notifications/cancelled` aborts the call.
 */
export function mcpServerFactory(execute: ToolExecutor): McpServerFactory {
  return (policy) => {
    const server = new Server(
      { name: 'travsr', title: 'Travsr code graph', version: HOST_VERSION },
      { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: Object.values(TOOL_DEFINITIONS).map((d) => ({
        name: d.name,
        title: d.title,
        description: d.description,
        inputSchema: d.inputSchema,
        annotations: { readOnlyHint: true, openWorldHint: false },
      })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const r = await execute(request.params.name, request.params.arguments ?? {}, policy, extra.signal);
      return { content: [{ type: 'text' as const, text: r.text }], structuredContent: r.structured, isError: r.isError };
    });
    return server;
  };
}
