import { Flags } from '@oclif/core';
import type { TravsrCommand } from '../../base-command.js';
import { FULL_ACCESS } from '../../../retrieval/access-policy.js';
import type { ToolName } from '../../../tools/tool-definitions.js';
import { openServedGraphs } from '../../../tools/served-graphs.js';
import { runTool } from '../../../tools/tool-runner.js';

/** Flags shared by the `graph` query commands. */
export const graphQueryFlags = {
  repo: Flags.directory({ default: '.', exists: true, description: 'repository (default: the current directory)' }),
  json: Flags.boolean({ default: false, description: 'print JSON (the MCP tool’s structured content)' }),
  'resolved-only': Flags.boolean({ default: false, description: 'leave out name-matched (Phase A) edges' }),
};

/** Runs MCP tool `tool` locally with full access and prints its text or JSON. */
export async function runGraphTool(
  cmd: TravsrCommand,
  tool: ToolName,
  repo: string,
  args: Record<string, unknown>,
  json: boolean,
): Promise<void> {
  const served = await openServedGraphs([repo]);
  try {
    const r = runTool(served.host, tool, args, FULL_ACCESS);
    if (r.isError) cmd.error(r.text, { exit: 1 });
    cmd.log(json ? JSON.stringify(r.structured, null, 2) : r.text);
  } finally {
    served.close();
  }
}
