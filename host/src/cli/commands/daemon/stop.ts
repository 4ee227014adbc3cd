import { Flags } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';

export default class DaemonStop extends TravsrCommand {
  static override summary = 'Stop the daemon (the update under way is stored first)';
  static override examples = ['<%= config.bin %> daemon stop'];
  static override flags = { json: Flags.boolean({ default: false, description: 'print JSON' }) };

  async run(): Promise<void> {
    const { flags } = await this.parse(DaemonStop);
    const { stopDaemon } = await import('../../../daemon/daemon-control.js');
    const out = await stopDaemon();
    if (flags.json) this.log(JSON.stringify(out));
    else if (out.kind === 'not-running') this.log('no daemon was running');
    else if (!out.killed) this.log(`daemon stopped (pid ${out.pid})`);
    else
      this.log(
        `daemon killed (pid ${out.pid}): it had not exited 30 s after it was asked to stop; its last lines are in \`travsr daemon logs\`, and the next start catches up with every change`,
      );
  }
}
