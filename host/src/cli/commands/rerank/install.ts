import { Args } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import { langContext } from '../../../catalog/install-plugin.js';
import { installModel } from '../../../models/model-install.js';
import { describeInstall, frozenFlag, ignoredKeyWarnings, jsonFlag, repoFlag } from '../../shared/lang-flags.js';

export default class RerankInstall extends TravsrCommand {
  static override summary = "Install the cross-encoder that reranks get_context's shortlist";
  static override description =
    "Installs a rerank model plugin from the registry (without an argument: the registry's only one), a plugin directory or a .tgz, pins it in .travsr/plugins.lock inside a repository and registers it. get_context then has it score (question, candidate) pairs for its best definitions and orders them by its scores — an arbiter over what the graph found, never a source of candidates —, within 2 s, else the unreranked order with a note. Remove it with `travsr model remove rerank`.";
  static override examples = ['<%= config.bin %> rerank install', '<%= config.bin %> rerank install code-cross-encoder@^1'];
  static override args = {
    model: Args.string({ description: "model plugin id (optionally @range), directory or .tgz; none: the registry's rerank model" }),
  };
  static override flags = { repo: repoFlag, 'frozen-lockfile': frozenFlag, json: jsonFlag };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(RerankInstall);
    const ctx = await langContext(flags.repo, flags['frozen-lockfile']);
    for (const line of ignoredKeyWarnings(ctx)) this.logToStderr(line);
    const { install } = await installModel(ctx, args.model, 'rerank');
    if (flags.json) {
      this.log(JSON.stringify({ lockFile: ctx.lockPath ?? null, task: 'rerank', installed: install }, null, 2));
      return;
    }
    for (const line of describeInstall(install, ctx.lockPath)) this.log(line);
    this.log('  registered as the rerank model: get_context reranks its shortlist with it');
  }
}
