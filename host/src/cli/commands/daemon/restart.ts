import { resolve } from 'node:path';
import { Flags } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';

export default class DaemonRestart extends TravsrCommand {
  static override summary = 'Stop the daemon and start it again (after an upgrade, or to read every setting anew)';
  static override examples = ['<%= config.bin %> daemon restart'];
  static override flags = {
    repo: Flags.directory({ multiple: true, exists: true, description: 'manage only this repository (repeatable)' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(DaemonRestart);
    const { startDetachedDaemon, stopDaemon } = await import('../../../daemon/daemon-control.js');
    await stopDaemon();
    const out = await startDetachedDaemon({ serveArgs: (flags.repo ?? []).flatMap((r) => ['--repo', resolve(r)]) });
    this.log(`daemon started (pid ${out.client.hello.pid})`);
    out.client.close();
  }
}
