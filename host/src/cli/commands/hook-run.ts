import { Args, Flags } from '@oclif/core';
import { TravsrCommand } from '../base-command.js';
import { formatSummary } from '../../indexer/index-summary.js';
import { reindexCommits } from '../../workspace/commit-reindex.js';

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
    try {
      const r = await reindexCommits(args.path);
      if (r.kind === 'no-commits') this.log('nothing to reindex: the repository has no commits');
      else if (r.kind === 'up-to-date') this.log(`already indexed at ${r.head.slice(0, 12)}`);
      else this.log(flags.json ? JSON.stringify(r.summary, null, 2) : formatSummary(r.summary));
    } catch (e) {
      if (!flags['from-hook']) throw e;
      const code = (e as { code?: string }).code;
      this.logToStderr(`travsr hook-run: ${code ? `[${code}] ` : ''}${(e as Error).message}`);
    }
  }
}
