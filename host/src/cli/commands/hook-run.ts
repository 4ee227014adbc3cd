import { Args, Flags } from '@oclif/core';
import { TravsrCommand } from '../base-command.js';
import { hookRun } from '../hook-run-action.js';

export default class HookRun extends TravsrCommand {
  static override summary = 'Reindex what the last commit(s) changed (run by the post-commit hook)';
  static override description =
    'Reads the change from the last indexed commit to HEAD (or HEAD~1..HEAD, or the whole first commit), skips files whose content hash is unchanged, re-analyzes the rest plus the files whose edges point into them (only those that name what changed, when the plugin reports interfaces), and updates name-matched edges. With --from-hook it never fails: problems are printed for .travsr/hook.log and the exit code is 0.';
  static override examples = ['<%= config.bin %> hook-run', '<%= config.bin %> hook-run --from-hook'];
  static override args = {
    path: Args.directory({ description: 'repository (default: the current directory)', default: '.', exists: true }),
  };
  static override flags = {
    'from-hook': Flags.boolean({ default: false, description: 'called by the git hook: never exit non-zero' }),
    json: Flags.boolean({ default: false, description: 'print the summary as JSON' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(HookRun);
    await hookRun(
      { path: args.path, fromHook: flags['from-hook'], json: flags.json },
      { log: (line) => this.log(line), logToStderr: (line) => this.logToStderr(line) },
    );
  }
}
