import { Args } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import { langContext, removePlugin } from '../../../catalog/install-plugin.js';
import { frozenFlag, jsonFlag, repoFlag, ignoredKeyWarnings } from '../../shared/lang-flags.js';

export default class LangRemove extends TravsrCommand {
  static override summary = 'Remove an installed plugin: its registration, its files and its lock entry';
  static override description =
    'Unregisters the plugin from ~/.travsr/lang.toml, deletes ~/.travsr/plugins/<id>/ (never a first-party plugin directory registered by `travsr init`) and its caches under ~/.travsr/cache/plugins/<id>/ and removes it from .travsr/plugins.lock. Versions the lock of another repository on this machine names stay installed (~/.travsr/known-locks.json).';
  static override examples = ['<%= config.bin %> lang remove lua', '<%= config.bin %> lang remove example-lua'];
  static override args = { target: Args.string({ required: true, description: 'language or plugin id' }) };
  static override flags = { repo: repoFlag, 'frozen-lockfile': frozenFlag, json: jsonFlag };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(LangRemove);
    const ctx = await langContext(flags.repo, flags['frozen-lockfile']);
    for (const line of ignoredKeyWarnings(ctx)) this.logToStderr(line);
    const r = await removePlugin(ctx, args.target);
    if (flags.json) {
      this.log(JSON.stringify({ lockFile: ctx.lockPath ?? null, removed: r }, null, 2));
      return;
    }
    this.log(`removed ${r.id}@${r.version}${r.languages.length > 0 ? ` (served ${r.languages.join(', ')})` : ''}`);
    if (r.deleted) this.log(`  deleted ${r.deleted}`);
    for (const c of r.cachesDeleted) this.log(`  deleted cache ${c}`);
    for (const k of r.kept) this.log(`  kept ${r.id}@${k.version} ${k.dir}: locked by ${k.locks.join(', ')}`);
    if (r.lockRemoved) this.log(`  removed from ${ctx.lockPath}`);
  }
}
