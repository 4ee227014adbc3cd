import { Args } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import {
  installFromRegistry,
  installLocal,
  isLocalTarget,
  langContext,
  splitRange,
  withRegistry,
  type InstallOutcome,
} from '../../../catalog/install-plugin.js';
import { readPluginsLock } from '../../../catalog/plugins-lock.js';
import { describeInstall, frozenFlag, jsonFlag, repoFlag, ignoredKeyWarnings } from '../../shared/lang-flags.js';

export default class LangInstall extends TravsrCommand {
  static override summary = 'Install a language plugin from the registry, a plugin directory or a .tgz';
  static override description =
    'Installs into ~/.travsr/plugins/<id>/<version>/ and registers it in ~/.travsr/lang.toml. Inside a repository the version and hashes are recorded in .travsr/plugins.lock, and a locked plugin is installed at its locked version with its locked hashes. Without an argument, installs everything in the lock. The registry is `registry.url` (default: the built-in registry, offline).';
  static override examples = [
    '<%= config.bin %> lang install lua',
    '<%= config.bin %> lang install example-lua@^0.1',
    '<%= config.bin %> lang install --frozen-lockfile',
    '<%= config.bin %> lang install ./my-plugin',
  ];
  static override args = {
    target: Args.string({ description: 'language, plugin id (optionally @range), plugin directory or .tgz; none: everything in the lock' }),
  };
  static override flags = { repo: repoFlag, 'frozen-lockfile': frozenFlag, json: jsonFlag };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(LangInstall);
    const ctx = await langContext(flags.repo, flags['frozen-lockfile']);
    for (const line of ignoredKeyWarnings(ctx)) this.logToStderr(line);
    const results: InstallOutcome[] = [];
    if (args.target !== undefined && isLocalTarget(args.target)) {
      results.push(await installLocal(ctx, args.target));
    } else {
      const targets: { name: string; range?: string }[] =
        args.target !== undefined
          ? [splitRange(args.target)]
          : Object.keys(ctx.lockPath ? readPluginsLock(ctx.lockPath) : {}).map((name) => ({ name }));
      if (targets.length === 0)
        this.error('nothing to install: name a language or plugin, or run inside a repository with a .travsr/plugins.lock', { exit: 2 });
      await withRegistry(ctx, async (source, client) => {
        for (const t of targets) results.push(await installFromRegistry(ctx, source, client, t.name, t.range, 'install'));
      });
    }
    if (flags.json) {
      this.log(JSON.stringify({ lockFile: ctx.lockPath ?? null, installed: results }, null, 2));
      return;
    }
    for (const r of results) for (const line of describeInstall(r, ctx.lockPath)) this.log(line);
  }
}
