import { Args, Flags, type Command } from '@oclif/core';
import { TravsrCommand } from '../base-command.js';
import type { ToolName } from '../../tools/tool-definitions.js';

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
  const { runToolLocalOrDaemon } = await import('./local-or-daemon-tool.js');
  const { stderrLogger } = await import('../../log/logger.js');
  const r = await runToolLocalOrDaemon(repo, tool, args, stderrLogger(), json ? 'structured' : 'text');
  if (r.isError) cmd.error(r.text, { exit: 1 });
  cmd.log(json ? JSON.stringify(r.structured, null, 2) : r.text);
}

/** What differs between `graph callers`, `graph deps` and `graph blast-radius`. */
export interface NeighbourhoodCommandSpec {
  name: string;
  tool: 'get_callers' | 'get_dependencies' | 'get_blast_radius';
  summary: string;
  defaultDepth: number;
}

/** A `graph <name> <symbol> [--depth] [--limit]` command that runs a neighbourhood tool. */
export function neighbourhoodCommand(spec: NeighbourhoodCommandSpec): Command.Class {
  return class extends TravsrCommand {
    static override summary = spec.summary;
    static override examples = [
      `<%= config.bin %> graph ${spec.name} Session.request`,
      `<%= config.bin %> graph ${spec.name} src/auth/jwt.ts:42 --depth 2 --json`,
    ];
    static override args = {
      symbol: Args.string({ description: 'node id (or 8+ hex prefix), path:line, qualified name, name, or file path', required: true }),
    };
    static override flags = {
      ...graphQueryFlags,
      depth: Flags.integer({ default: spec.defaultDepth, min: 1, max: 3, description: 'hops to follow' }),
      limit: Flags.integer({ default: 200, min: 1, max: 5000, description: 'at most this many nodes' }),
    };

    async run(): Promise<void> {
      const { args, flags } = await this.parse(
        this.constructor as typeof TravsrCommand & { args: { symbol: ReturnType<typeof Args.string> } },
      );
      const f = flags as { repo: string; json: boolean; 'resolved-only': boolean; depth: number; limit: number };
      await runGraphTool(
        this,
        spec.tool,
        f.repo,
        { symbol: (args as { symbol: string }).symbol, depth: f.depth, limit: f.limit, resolved_only: f['resolved-only'] },
        f.json,
      );
    }
  };
}
