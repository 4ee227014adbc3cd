import { Args } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';

export default class DaemonAdd extends TravsrCommand {
  static override summary = 'Have the daemon manage a repository (it must be `travsr init`-ed); remembered for its next start';
  static override examples = ['<%= config.bin %> daemon add ~/src/api'];
  static override args = {
    path: Args.directory({ description: 'repository (default: the current directory)', default: '.', exists: true }),
  };

  async run(): Promise<void> {
    const { args } = await this.parse(DaemonAdd);
    const { connectDaemon } = await import('../../../daemon/daemon-client.js');
    const { openWorkspace } = await import('../../../workspace/workspace.js');
    const { rememberRepo } = await import('../../../workspace/known-repos.js');
    const client = await connectDaemon();
    if (client) {
      try {
        this.log((await client.addRepo(args.path)).message);
      } finally {
        client.close();
      }
      return;
    }
    // No daemon: remembered for its next start, once it is known to be an initialized repository.
    const ws = await openWorkspace(args.path);
    const root = ws.root;
    ws.close();
    rememberRepo(root);
    this.log(`${root} will be managed when the daemon starts (\`travsr daemon start\`)`);
  }
}
