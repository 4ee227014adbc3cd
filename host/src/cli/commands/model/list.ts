import { Flags } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import { listModels } from '../../../models/model-catalog.js';

export default class ModelList extends TravsrCommand {
  static override summary = 'List the model plugins: the one each task (embed, rerank) uses first, then the others installed or added';
  static override examples = ['<%= config.bin %> model list', '<%= config.bin %> model list --json'];
  static override flags = { json: Flags.boolean({ description: 'print JSON', default: false }) };

  async run(): Promise<void> {
    const { flags } = await this.parse(ModelList);
    const models = listModels();
    if (flags.json) {
      this.log(JSON.stringify({ models }, null, 2));
      return;
    }
    if (models.length === 0) {
      this.log('no model registered; add one with `travsr model add <dir>`');
      return;
    }
    for (const m of models) this.log(`${m.task.padEnd(7)} ${m.id}@${m.version}${m.registered ? '' : ' (not in use)'}  ${m.dir}`);
  }
}
