import { Args, Flags } from '@oclif/core';
import { TravsrCommand } from '../base-command.js';
import { formatSummary } from '../../indexer/index-summary.js';
import { indexWorkspace } from '../../workspace/index-workspace.js';
import { openWorkspace } from '../../workspace/workspace.js';

export default class Index extends TravsrCommand {
  static override summary = 'Index the repository: analyze what changed since the last run';
  static override description =
    'Walks the tree, hashes every file a registered plugin claims, and re-analyzes the files whose content changed (all of them with --rebuild). Files that disappeared are removed from the graph.';
  static override examples = ['<%= config.bin %> index', '<%= config.bin %> index --rebuild --json'];
  static override args = {
    path: Args.directory({ description: 'repository (default: the current directory)', default: '.', exists: true }),
  };
  static override flags = {
    rebuild: Flags.boolean({ default: false, description: 're-analyze every file, even unchanged ones' }),
    json: Flags.boolean({ default: false, description: 'print the summary as JSON' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Index);
    const ws = await openWorkspace(args.path);
    try {
      const summary = await indexWorkspace(ws, { kind: 'full', rebuild: flags.rebuild }, { progress: !flags.json });
      this.log(flags.json ? JSON.stringify(summary, null, 2) : formatSummary(summary));
    } finally {
      ws.close();
    }
  }
}
