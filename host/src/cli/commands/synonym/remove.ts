import { Args, Flags } from '@oclif/core';
import { describeConfigSource } from '../../../config/index.js';
import { TravsrCommand } from '../../base-command.js';
import { openWorkspace } from '../../../workspace/workspace.js';

export default class SynonymRemove extends TravsrCommand {
  static override summary = 'Forget that two words are synonyms (either order)';
  static override examples = ['<%= config.bin %> synonym remove cfg configuration'];
  static override args = {
    word: Args.string({ required: true, description: 'one word of the pair' }),
    synonym: Args.string({ required: true, description: 'the other' }),
  };
  static override flags = {
    repo: Flags.string({ description: 'repository (default: the current directory)' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(SynonymRemove);
    const ws = await openWorkspace(flags.repo ?? process.cwd());
    try {
      const fromConfig = ws.store.synonymOrigin(args.word, args.synonym) === 'config';
      if (fromConfig)
        this.error(
          `${args.word} = ${args.synonym} comes from the retrieval.synonyms setting (${describeConfigSource(ws.config.values['retrieval.synonyms'])}); take it out there`,
          { exit: 1 },
        );
      if (ws.store.removeSynonym(args.word, args.synonym)) this.log(`removed ${args.word} = ${args.synonym}`);
      else this.error(`${args.word} = ${args.synonym} is not a synonym pair here; \`travsr synonym list\` shows them`, { exit: 1 });
    } finally {
      ws.close();
    }
  }
}
