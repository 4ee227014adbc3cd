import { Args, Flags } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import { graphQueryFlags, runGraphTool } from './graph-tool-command.js';

export default class GraphCallers extends TravsrCommand {
  static override summary = 'Who calls a symbol (transitively up to --depth)';
  static override examples = [
    '<%= config.bin %> graph callers Session.request',
    '<%= config.bin %> graph callers src/auth/jwt.ts:42 --depth 2 --json',
  ];
  static override args = {
    symbol: Args.string({ description: 'node id (or 8+ hex prefix), path:line, qualified name, name, or file path', required: true }),
  };
  static override flags = {
    ...graphQueryFlags,
    depth: Flags.integer({ default: 1, min: 1, max: 3, description: 'hops to follow' }),
    limit: Flags.integer({ default: 200, min: 1, max: 5000, description: 'at most this many nodes' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(GraphCallers);
    await runGraphTool(
      this,
      'get_callers',
      flags.repo,
      { symbol: args.symbol, depth: flags.depth, limit: flags.limit, resolved_only: flags['resolved-only'] },
      flags.json,
    );
  }
}
