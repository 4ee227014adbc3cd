import { Args, Flags } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import { addModel } from '../../../models/model-catalog.js';

export default class ModelAdd extends TravsrCommand {
  static override summary = 'Register a model of the semantic layer from a local directory';
  static override description =
    'Takes a model plugin directory (travsr-plugin.json of kind "model", e.g. one `travsr plugin pack` packed) as it is, or a model directory — travsr-model.json, the ONNX network and its tokenizer.json, every file pinned by its SHA-256 — which it makes into a model plugin under ~/.travsr/models/ with this installation\'s model runner. The model is registered for its task (embed or rerank) in ~/.travsr/lang.toml, replacing the one registered before; its files are pinned by their tree hash, so a model changed afterwards is refused. It runs sandboxed (standard tier: no network, no repository). Then `travsr embed` embeds a repository\'s definitions with it.';
  static override examples = [
    '<%= config.bin %> model add ./code-minilm',
    '<%= config.bin %> model add ~/models/code-cross-encoder --json',
  ];
  static override args = {
    dir: Args.directory({ description: 'the model directory or model plugin directory', required: true, exists: true }),
  };
  static override flags = { json: Flags.boolean({ description: 'print JSON', default: false }) };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ModelAdd);
    const { model, madeFrom } = await addModel(args.dir);
    const out = {
      task: model.task,
      id: model.plugin.manifest.id,
      version: model.plugin.manifest.version,
      dir: model.plugin.dir,
      ...(model.info.dimensions !== undefined ? { dimensions: model.info.dimensions } : {}),
      maxTokens: model.info.maxTokens,
      licence: model.info.licence,
      treeHash: model.treeHash,
      ...(madeFrom ? { madeFrom } : {}),
    };
    if (flags.json) {
      this.log(JSON.stringify(out, null, 2));
      return;
    }
    this.log(
      `registered ${out.id}@${out.version} as the ${out.task} model (${out.licence}${out.dimensions ? `, ${out.dimensions} dimensions` : ''}, ${out.maxTokens} tokens)`,
    );
    if (madeFrom) this.log(`  made into a model plugin at ${out.dir}`);
    this.log(out.task === 'embed' ? '  next: travsr embed (in a repository)' : '  get_context now reranks its shortlist with it');
  }
}
