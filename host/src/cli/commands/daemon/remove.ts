import { resolve } from 'node:path';
import { Args } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';

export default class DaemonRemove extends TravsrCommand {
  static override summary = 'Stop the daemon managing a repository (its index stays; the post-commit hook indexes it again)';
  static override examples = ['<%= config.bin %> daemon remove ~/src/api'];
  static override args = {
    path: Args.directory({ description: 'repository (default: the current directory)', default: '.', exists: true }),
  };

  async run(): Promise<void> {
    const { args } = await this.parse(DaemonRemove);
    const { connectDaemon } = await import('../../../daemon/daemon-client.js');
    const { forgetRepo } = await import('../../../workspace/known-repos.js');
    const { initializedGitRoot } = await import('../../../workspace/initialized-root.js');
    const client = await connectDaemon();
    if (client) {
      try {
        this.log((await client.removeRepo(resolve(args.path))).message);
      } finally {
        client.close();
      }
      return;
    }
    const root = initializedGitRoot(resolve(args.path)) ?? resolve(args.path);
    this.log(forgetRepo(root) ? `${root} will no longer be managed by the daemon` : `${root} was not managed by the daemon`);
  }
}
