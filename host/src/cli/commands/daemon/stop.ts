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
    else this.log(out.kind === 'stopped' ? `daemon stopped (pid ${out.pid})` : 'no daemon was running');
  }
}
