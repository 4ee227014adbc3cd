import { Args, Flags } from '@oclif/core';
import { TravsrCommand } from '../base-command.js';
import { diffCommits, headCommit, readCommitDiff, resolveCommit } from '../../indexer/git/index.js';
import { formatSummary } from '../../indexer/index-summary.js';
import { indexWorkspace } from '../../workspace/index-workspace.js';
import { openWorkspace } from '../../workspace/workspace.js';

export default class HookRun extends TravsrCommand {
  static override summary = 'Reindex what the last commit(s) changed (run by the post-commit hook)';
  static override description =
    'Reads the change from the last indexed commit to HEAD (or HEAD~1..HEAD, or the whole first commit), skips files whose content hash is unchanged, re-analyzes the rest plus the files whose edges point into them, and updates name-matched edges. With --from-hook it never fails: problems are printed for .travsr/hook.log and the exit code is 0.';
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
      await this.reindex(args.path, flags.json);
    } catch (e) {
      if (!flags['from-hook']) throw e;
      const code = (e as { code?: string }).code;
      this.logToStderr(`travsr hook-run: ${code ? `[${code}] ` : ''}${(e as Error).message}`);
    }
  }

  private async reindex(path: string, json: boolean): Promise<void> {
    const ws = await openWorkspace(path);
    try {
      const head = await headCommit(ws.root);
      if (!head) {
        this.log('nothing to reindex: the repository has no commits');
        return;
      }
      const last = ws.store.getMeta('last_indexed_commit');
      // A run killed after this commit was indexed (a `travsr index`) still has to be completed.
      if (last === head && ws.store.lastIndexRun()?.state !== 'running') {
        this.log(`already indexed at ${head.slice(0, 12)}`);
        return;
      }
      // From the last indexed commit when it still exists (catches up after missed hooks,
      // amends and rebases); else the commit's own change.
      const from = last ? await resolveCommit(ws.root, last) : undefined;
      const diff = from ? await diffCommits(ws.root, from, head) : await readCommitDiff(ws.root, { to: head });
      const changed = [...diff.added, ...diff.modified, ...diff.renamed.map((r) => r.to), ...(diff.typeChanged ?? [])];
      const deleted = [...diff.deleted, ...diff.renamed.map((r) => r.from)];
      const summary = await indexWorkspace(ws, { kind: 'incremental', changed, deleted }, { progress: false, commit: head });
      this.log(json ? JSON.stringify(summary, null, 2) : formatSummary(summary));
    } finally {
      ws.close();
    }
  }
}
