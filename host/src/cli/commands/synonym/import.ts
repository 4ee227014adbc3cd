import { readFileSync } from 'node:fs';
import { Args, Flags } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import { parseSynonymFile } from '../../../synonyms/synonym-file.js';
import { openWorkspace } from '../../../workspace/workspace.js';

export default class SynonymImport extends TravsrCommand {
  static override summary = 'Add the synonym pairs of a file (or - for standard input), all or none';
  static override description = `Text, a line per word: \`word = synonym, another synonym\` (# starts a comment). Or JSON: what \`travsr synonym list --json\` prints, or an object of "word": ["synonym", …]. A line that is neither stops the import before anything is added.`;
  static override examples = [
    '<%= config.bin %> synonym import synonyms.txt',
    '<%= config.bin %> synonym list --json --repo ../other | <%= config.bin %> synonym import -',
  ];
  static override args = {
    file: Args.string({ required: true, description: 'the file, or - for standard input' }),
  };
  static override flags = {
    repo: Flags.string({ description: 'repository (default: the current directory)' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(SynonymImport);
    const text = readFileSync(args.file === '-' ? 0 : args.file, 'utf8');
    const pairs = parseSynonymFile(text, args.file === '-' ? 'standard input' : args.file);
    const ws = await openWorkspace(flags.repo ?? process.cwd());
    try {
      const added = ws.store.addSynonyms(pairs);
      this.log(`${pairs.length} pair${pairs.length === 1 ? '' : 's'} read, ${added} new`);
    } finally {
      ws.close();
    }
  }
}
