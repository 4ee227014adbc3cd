import { Flags } from '@oclif/core';
import { TravsrCommand } from '../base-command.js';
import { openWorkspace } from '../../workspace/workspace.js';
import { progressReporter } from '../../workspace/progress.js';
import { persistentTraceSink } from '../../traces/trace-sink.js';
import { registeredModel, useModel } from '../../models/model-catalog.js';
import { ModelClient } from '../../models/model-client.js';
import { ModelChannelError } from '../../models/model-errors.js';
import { embedDefinitions } from '../../models/embed-definitions.js';

export default class Embed extends TravsrCommand {
  static override summary = "Embed the repository's definitions with the registered embedding model";
  static override description =
    "Turns each function, method and type of the graph into a vector — from its kind and qualified name, its signature and doc comment and the first lines of its body — with the model `travsr model add` registered, and stores them in the repository's graph. Incremental: only definitions whose text changed since their vector was made are embedded again, and vectors of definitions that are gone are removed. get_context then finds code by meaning too (its vector channel), for questions that share no word with the code. The model runs sandboxed, without network.";
  static override examples = ['<%= config.bin %> embed', '<%= config.bin %> embed --model code-minilm', '<%= config.bin %> embed --json'];
  static override flags = {
    repo: Flags.string({ description: 'repository (default: the current directory)' }),
    model: Flags.string({
      description: 'the id of an installed embedding model to use, and register for the vector channel (default: the registered one)',
    }),
    json: Flags.boolean({ description: 'print the summary as JSON', default: false }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Embed);
    const model = flags.model ? await useModel(flags.model, 'embed') : await registeredModel('embed');
    if (!model)
      throw new ModelChannelError(
        'MODEL_NOT_REGISTERED',
        'no embedding model is registered: add one with `travsr model add <model dir>` (an ONNX model with its travsr-model.json), then run travsr embed again',
      );
    const ws = await openWorkspace(flags.repo ?? process.cwd());
    const progress = progressReporter(!flags.json && process.stderr.isTTY === true && !process.env.CI);
    let client: ModelClient | undefined;
    try {
      client = await ModelClient.start(model, { logger: ws.logger, onTrace: persistentTraceSink(ws.root, ws.logger) });
      const summary = await embedDefinitions(ws.store, ws.root, client, {
        onProgress: (done, total) => progress.update({ stage: 'embed', done, total, plugin: model.key }),
      });
      progress.done();
      if (flags.json) {
        this.log(JSON.stringify(summary, null, 2));
        return;
      }
      this.log(
        `embedded ${summary.embedded} of ${summary.definitions} definitions with ${summary.model} (${summary.unchanged} unchanged, ${summary.removed} removed) in ${(summary.durationMs / 1000).toFixed(1)} s`,
      );
      for (const o of summary.otherModels)
        this.log(`  removed ${o.count} vectors of ${o.model}: the vector channel uses ${summary.model} only`);
      if (summary.skipped.length > 0) {
        this.log(`  ${summary.skipped.length} file(s) not embedded:`);
        for (const s of summary.skipped.slice(0, 10)) this.log(`    ${s.path}: ${s.reason}`);
        if (summary.skipped.length > 10) this.log(`    … and ${summary.skipped.length - 10} more (--json lists them)`);
      }
    } finally {
      progress.done();
      await client?.stop();
      ws.close();
    }
  }
}
