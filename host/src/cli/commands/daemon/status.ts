import { Flags } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';

export default class DaemonStatus extends TravsrCommand {
  static override summary = 'Show the daemon: its repositories, watch mode, dirty files, updates, cache hit rate, memory';
  static override examples = ['<%= config.bin %> daemon status', '<%= config.bin %> daemon status --json'];
  static override flags = {
    json: Flags.boolean({ default: false, description: 'print JSON' }),
    repo: Flags.directory({ multiple: true, exists: true, description: 'only this repository (repeatable)' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(DaemonStatus);
    const { connectDaemon } = await import('../../../daemon/daemon-client.js');
    const { formatDaemonStatus } = await import('../../render/daemon-status.js');
    const { daemonBuild } = await import('../../../daemon/daemon-build.js');
    const client = await connectDaemon({ build: 'ignore' });
    if (!client) {
      if (flags.json) this.log(JSON.stringify({ running: false }));
      else this.log('no daemon is running (start it with `travsr daemon start`)');
      return;
    }
    try {
      const status = await client.status(flags.repo ?? []);
      if (flags.json) this.log(JSON.stringify({ running: true, ...status }, null, 2));
      else for (const line of formatDaemonStatus(status, daemonBuild())) this.log(line);
    } finally {
      client.close();
    }
  }
}
