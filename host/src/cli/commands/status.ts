import { Args, Flags } from '@oclif/core';
import { TravsrCommand } from '../base-command.js';
import { showStatus } from '../status-action.js';

export default class Status extends TravsrCommand {
  static override summary = 'Show the state of the index: schema version, counts, languages, plugins, completeness';
  static override examples = ['<%= config.bin %> status', '<%= config.bin %> status --json'];
  static override args = {
    path: Args.directory({ description: 'repository (default: the current directory)', default: '.', exists: true }),
  };
  static override flags = { json: Flags.boolean({ default: false, description: 'print JSON' }) };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Status);
    await showStatus({ path: args.path, json: flags.json }, { log: (line) => this.log(line) });
  }
}
