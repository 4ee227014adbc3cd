import { Args } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import { graphQueryFlags, runGraphTool } from '../../shared/graph-tool-command.js';

export default class GraphPath extends TravsrCommand {
  static override summary = 'How one symbol reaches another: a shortest call chain (else any dependency chain)';
  static override examples = ['<%= config.bin %> graph path handleLogin db.query', '<%= config.bin %> graph path main parseConfig --json'];
  static override args = {
    from: Args.string({ description: 'start symbol', required: true }),
    to: Args.string({ description: 'target symbol', required: true }),
  };
  static override flags = { ...graphQueryFlags };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(GraphPath);
    await runGraphTool(
      this,
      'get_execution_path',
      flags.repo,
      { from: args.from, to: args.to, resolved_only: flags['resolved-only'] },
      flags.json,
    );
  }
}
