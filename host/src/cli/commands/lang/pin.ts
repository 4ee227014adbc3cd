import { Args } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import { installFromRegistry, langContext, splitRange, withRegistry } from '../../../catalog/install-plugin.js';
import { describeInstall, frozenFlag, jsonFlag, repoFlag, ignoredKeyWarnings } from '../../shared/lang-flags.js';

export default class LangPin extends TravsrCommand {
  static override summary = 'Pin a plugin to an exact version in the repository lock, and install it';
  static override description =
    '`lang update` then keeps the plugin at that version; `lang update --upgrade` or `lang install <id>@<range>` unpins it.';
  static override examples = ['<%= config.bin %> lang pin example-lua@0.1.0'];
  static override args = { target: Args.string({ required: true, description: '<plugin id or language>@<version>' }) };
  static override flags = { repo: repoFlag, 'frozen-lockfile': frozenFlag, json: jsonFlag };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(LangPin);
    const { name, range } = splitRange(args.target);
    if (range === undefined) this.error(`pin needs a version: \`travsr lang pin ${name}@<version>\``, { exit: 2 });
    const ctx = await langContext(flags.repo, flags['frozen-lockfile']);
    for (const line of ignoredKeyWarnings(ctx)) this.logToStderr(line);
    const r = await withRegistry(ctx, (source, client) => installFromRegistry(ctx, source, client, name, range, 'pin'));
    if (flags.json) this.log(JSON.stringify({ lockFile: ctx.lockPath ?? null, pinned: r }, null, 2));
    else for (const line of describeInstall(r, ctx.lockPath)) this.log(line);
  }
}
