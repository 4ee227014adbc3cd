import { Args, Flags } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import { openWorkspace } from '../../../workspace/workspace.js';

export default class SynonymAdd extends TravsrCommand {
  static override summary = 'Say that a word of the questions may be written another way in the code (both directions)';
  static override description =
    "Kept in the repository's graph store (.travsr/graph.db). Every search of the graph then also looks for the synonym: symbol search, and the BM25 over files and definitions at half the weight of the word itself. Words are compared lowercased; a synonym may be several words.";
  static override examples = [
    '<%= config.bin %> synonym add cfg config configuration',
    '<%= config.bin %> synonym add auth authentication',
  ];
  static override strict = false;
  static override args = {
    word: Args.string({ required: true, description: 'the word, e.g. cfg' }),
    synonyms: Args.string({ required: true, description: 'one or more synonyms of it, e.g. config configuration' }),
  };
  static override flags = {
    repo: Flags.string({ description: 'repository (default: the current directory)' }),
  };

  async run(): Promise<void> {
    const { args, argv, flags } = await this.parse(SynonymAdd);
    const synonyms = (argv as string[]).slice(1);
    const ws = await openWorkspace(flags.repo ?? process.cwd());
    try {
      const added = ws.store.addSynonyms(synonyms.map((synonym) => ({ term: args.word, synonym })));
      this.log(
        `${args.word} = ${synonyms.join(', ')}: ${added} new pair${added === 1 ? '' : 's'}${added < synonyms.length ? ` (${synonyms.length - added} known already)` : ''}`,
      );
    } finally {
      ws.close();
    }
  }
}
