import { Args } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import { langContext } from '../../../catalog/install-plugin.js';
import { installModel } from '../../../models/model-install.js';
import { describeInstall, frozenFlag, ignoredKeyWarnings, jsonFlag, repoFlag } from '../../shared/lang-flags.js';

export default class ModelInstall extends TravsrCommand {
  static override summary = 'Install a model plugin (an embedder or a cross-encoder) from the registry, a directory or a .tgz';
  static override description =
    'A model is a plugin artifact like any other: installed into ~/.travsr/plugins/<id>/<version>/ after its signature and hashes are checked, pinned in .travsr/plugins.lock inside a repository, and registered for its task (embed or rerank) in ~/.travsr/lang.toml, replacing the model registered for it before. `travsr plugin pack` packs one; `travsr model add` registers a model directory of your own.';
  static override examples = [
    '<%= config.bin %> model install code-minilm',
    '<%= config.bin %> model install code-minilm@^1.0',
    '<%= config.bin %> model install ./code-minilm-1.0.0-any.tgz',
  ];
  static override args = {
    target: Args.string({ description: 'model plugin id (optionally @range), plugin directory or .tgz', required: true }),
  };
  static override flags = { repo: repoFlag, 'frozen-lockfile': frozenFlag, json: jsonFlag };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ModelInstall);
    const ctx = await langContext(flags.repo, flags['frozen-lockfile']);
    for (const line of ignoredKeyWarnings(ctx)) this.logToStderr(line);
    const { install, task } = await installModel(ctx, args.target);
    if (flags.json) {
      this.log(JSON.stringify({ lockFile: ctx.lockPath ?? null, task, installed: install }, null, 2));
      return;
    }
    for (const line of describeInstall(install, ctx.lockPath)) this.log(line);
    this.log(
      `  registered as the ${task} model${task === 'embed' ? ' (next: travsr embed, in a repository)' : ': get_context reranks its shortlist with it'}`,
    );
  }
}
