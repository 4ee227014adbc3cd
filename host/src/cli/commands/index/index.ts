import { Args, Flags } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import { formatSummary } from '../../../indexer/index-summary.js';
import { indexWorkspace } from '../../../workspace/index-workspace.js';
import { describeSetAside, openWorkspaceForRebuild } from '../../../workspace/open-for-rebuild.js';
import { openWorkspace } from '../../../workspace/workspace.js';

export default class Index extends TravsrCommand {
  static override summary = 'Index the repository: analyze what changed since the last run';
  static override description =
    'Walks the tree, hashes every file a registered plugin claims, and re-analyzes the files whose content changed (all of them with --rebuild). Files that disappeared are removed from the graph.';
  static override examples = ['<%= config.bin %> index', '<%= config.bin %> index --rebuild --json'];
  static override args = {
    path: Args.directory({ description: 'repository (default: the current directory)', default: '.', exists: true }),
  };
  static override flags = {
    rebuild: Flags.boolean({
      default: false,
      description: 're-analyze every file, even unchanged ones; a graph database that cannot be used is moved aside and made anew',
    }),
    json: Flags.boolean({ default: false, description: 'print the summary as JSON' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Index);
    const { ws, setAside } = flags.rebuild ? await openWorkspaceForRebuild(args.path) : { ws: await openWorkspace(args.path) };
    try {
      if (setAside) this.logToStderr(`travsr: ${describeSetAside(setAside)}`);
      const summary = await indexWorkspace(ws, { kind: 'full', rebuild: flags.rebuild }, { progress: !flags.json });
      this.log(
        flags.json ? JSON.stringify({ ...summary, ...(setAside ? { storeSetAside: setAside } : {}) }, null, 2) : formatSummary(summary),
      );
    } finally {
      ws.close();
    }
  }
}
