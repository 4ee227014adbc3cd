import { Flags } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';

export default class DaemonLogs extends TravsrCommand {
  static override summary = "Print the end of the daemon's log (~/.travsr/daemon/daemon.log)";
  static override examples = ['<%= config.bin %> daemon logs', '<%= config.bin %> daemon logs --lines 200 --follow'];
  static override flags = {
    lines: Flags.integer({ char: 'n', default: 50, min: 1, description: 'lines to print' }),
    follow: Flags.boolean({ char: 'f', default: false, description: 'keep printing what the daemon logs (Ctrl-C to stop)' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(DaemonLogs);
    const { daemonPaths } = await import('../../../daemon/daemon-paths.js');
    const { logTail } = await import('../../../daemon/daemon-control.js');
    const { existsSync, statSync, openSync, readSync, closeSync } = await import('node:fs');
    const file = daemonPaths().logFile;
    if (!existsSync(file)) {
      this.log(`no daemon log yet (${file})`);
      return;
    }
    this.log(logTail(file, 0, flags.lines));
    if (!flags.follow) return;
    let at = statSync(file).size;
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const size = statSync(file).size;
        if (size < at) at = 0; // rotated or truncated
        if (size === at) return;
        const buf = Buffer.alloc(size - at);
        const fd = openSync(file, 'r');
        readSync(fd, buf, 0, buf.length, at);
        closeSync(fd);
        at = size;
        process.stdout.write(buf.toString('utf8'));
      }, 250);
      process.once('SIGINT', () => {
        clearInterval(timer);
        resolve();
      });
    });
  }
}
