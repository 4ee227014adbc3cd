import { Flags } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import { langContext } from '../../../catalog/install-plugin.js';
import { readPluginsLock } from '../../../catalog/plugins-lock.js';
import { prunePlugins } from '../../../catalog/prune-plugins.js';
import { jsonFlag, repoFlag, ignoredKeyWarnings } from '../../shared/lang-flags.js';

export default class LangPrune extends TravsrCommand {
  static override summary = 'Delete installed plugin versions nothing here uses';
  static override description =
    'Deletes ~/.travsr/plugins/<id>/<version>/ (and its caches, ~/.travsr/cache/plugins/<id>/<version>/; also the caches of versions no longer installed) for every version that is neither the one ~/.travsr/lang.toml registers, nor the one this repository’s .travsr/plugins.lock names, nor one named by the lock of another repository Travsr has installed into or indexed on this machine (~/.travsr/known-locks.json; updates leave old versions on disk for them).';
  static override examples = ['<%= config.bin %> lang prune --dry-run', '<%= config.bin %> lang prune'];
  static override flags = {
    repo: repoFlag,
    'dry-run': Flags.boolean({ default: false, description: 'list what would be deleted, delete nothing' }),
    json: jsonFlag,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(LangPrune);
    const ctx = await langContext(flags.repo, false);
    for (const line of ignoredKeyWarnings(ctx)) this.logToStderr(line);
    const { pruned, caches, kept, unreadableLocks } = prunePlugins(ctx.lockPath ? readPluginsLock(ctx.lockPath) : {}, {
      dryRun: flags['dry-run'],
    });
    if (flags.json) {
      this.log(JSON.stringify({ dryRun: flags['dry-run'], pruned, caches, kept, unreadableLocks }, null, 2));
      return;
    }
    for (const k of kept) this.log(`kept ${k.id}@${k.version}: locked by ${k.locks.join(', ')}`);
    for (const u of unreadableLocks)
      this.warn(`${u} could not be read: what it locks may be pruned; fix it and run \`travsr lang install\` there`);
    if (pruned.length === 0 && caches.length === 0) {
      this.log('nothing to prune');
      return;
    }
    const mib = (b: number) => `${(b / 1048576).toFixed(1)} MiB`;
    const verb = flags['dry-run'] ? 'would delete' : 'deleted';
    for (const p of pruned)
      this.log(`${verb} ${p.id}@${p.version} (${mib(p.bytes)}) ${p.dir}${p.cache ? ` and its cache ${p.cache}` : ''}`);
    for (const c of caches) this.log(`${verb} the cache of ${c.id}@${c.version} (${mib(c.bytes)}) ${c.dir}`);
    const total = [...pruned, ...caches].reduce((n, p) => n + p.bytes, 0);
    this.log(`${flags['dry-run'] ? 'would free' : 'freed'} ${mib(total)}`);
  }
}
