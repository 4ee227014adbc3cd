import { Args, Flags } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import { removeModel } from '../../../models/model-catalog.js';
import { ModelChannelError } from '../../../models/model-errors.js';

export default class ModelRemove extends TravsrCommand {
  static override summary = 'Unregister a model (by task — embed, rerank — or by id)';
  static override description =
    'The model plugin `travsr model add` made from a model directory is deleted; a directory you registered as it is stays. Vectors already made with an embedding model stay in each repository until `travsr embed` runs with another model.';
  static override examples = ['<%= config.bin %> model remove embed', '<%= config.bin %> model remove code-minilm'];
  static override args = { model: Args.string({ description: 'embed, rerank, or a model id', required: true }) };
  static override flags = { json: Flags.boolean({ description: 'print JSON', default: false }) };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ModelRemove);
    const removed = removeModel(args.model);
    if (removed.length === 0)
      throw new ModelChannelError(
        'MODEL_NOT_REGISTERED',
        `no model is registered as ${args.model}; \`travsr model list\` shows the registered ones`,
      );
    if (flags.json) this.log(JSON.stringify({ removed }, null, 2));
    else for (const m of removed) this.log(`removed the ${m.task} model ${m.id}@${m.version}`);
  }
}
