import { Args, Flags } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import { graphQueryFlags, runGraphTool } from './graph-tool-command.js';

export default class GraphBlastRadius extends TravsrCommand {
  static override summary = 'What a change to a symbol or file can break (everything depending on it within --depth)';
  static override examples = [
    '<%= config.bin %> graph blast-radius Session.request',
    '<%= config.bin %> graph blast-radius src/auth/jwt.ts:42 --depth 2 --json',
  ];
  static override args = {
    symbol: Args.string({ description: 'node id (or 8+ hex prefix), path:line, qualified name, name, or file path', required: true }),
  };
  static override flags = {
    ...graphQueryFlags,
    depth: Flags.integer({ default: 3, min: 1, max: 3, description: 'hops to follow' }),
    limit: Flags.integer({ default: 200, min: 1, max: 5000, description: 'at most this many nodes' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(GraphBlastRadius);
    await runGraphTool(
      this,
      'get_blast_radius',
      flags.repo,
      { symbol: args.symbol, depth: flags.depth, limit: flags.limit, resolved_only: flags['resolved-only'] },
      flags.json,
    );
  }
}
