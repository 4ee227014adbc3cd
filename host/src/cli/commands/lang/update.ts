import { Args, Flags } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import { installFromRegistry, langContext, withRegistry, type InstallOutcome } from '../../../catalog/install-plugin.js';
import { readPluginsLock } from '../../../catalog/plugins-lock.js';
import { readLangToml } from '../../../catalog/lang-toml.js';
import { describeInstall, frozenFlag, jsonFlag, repoFlag, ignoredKeyWarnings } from '../../shared/lang-flags.js';

export default class LangUpdate extends TravsrCommand {
  static override summary = 'Update installed plugins to the newest version their lock constraint allows';
  static override description =
    'Without arguments, updates every plugin in the repository lock (outside a repository: every plugin installed from a registry). --upgrade moves past the constraint to the newest published version and sets the constraint to ^<newest>. A registry offering only versions older than the lock is refused (VERSION_ROLLBACK).';
  static override examples = [
    '<%= config.bin %> lang update',
    '<%= config.bin %> lang update example-lua --upgrade',
    '<%= config.bin %> lang update --frozen-lockfile',
  ];
  static override strict = false;
  static override args = { plugins: Args.string({ description: 'plugin ids or languages (default: all)' }) };
  static override flags = {
    upgrade: Flags.boolean({ default: false, description: 'go past the constraint to the newest version' }),
    repo: repoFlag,
    'frozen-lockfile': frozenFlag,
    json: jsonFlag,
  };

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(LangUpdate);
    const ctx = await langContext(flags.repo, flags['frozen-lockfile']);
    for (const line of ignoredKeyWarnings(ctx)) this.logToStderr(line);
    let names = argv as string[];
    if (names.length === 0) {
      const lock = ctx.lockPath ? readPluginsLock(ctx.lockPath) : {};
      names = Object.entries(lock)
        .filter(([, e]) => !e.registry.startsWith('local:'))
        .map(([id]) => id);
      if (ctx.lockPath === undefined) {
        const reg = readLangToml();
        names = Object.entries(reg.plugins)
          .filter(([, p]) => p.dir.startsWith(ctx.pluginsRoot))
          .map(([id]) => id);
      }
    }
    const results: InstallOutcome[] = [];
    if (names.length > 0)
      await withRegistry(ctx, async (source, client) => {
        for (const name of names.sort())
          results.push(await installFromRegistry(ctx, source, client, name, undefined, flags.upgrade ? 'upgrade' : 'update'));
      });
    if (flags.json) {
      this.log(JSON.stringify({ lockFile: ctx.lockPath ?? null, updated: results }, null, 2));
      return;
    }
    if (results.length === 0) this.log('nothing to update');
    for (const r of results) {
      const from = r.lockBefore?.version;
      if (from === r.version && r.alreadyInstalled)
        this.log(`${r.id}@${r.version} is up to date (constraint ${r.lockAfter?.constraint ?? '-'})`);
      else for (const line of describeInstall(r, ctx.lockPath)) this.log(line);
    }
  }
}
