import { Flags } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import { openWorkspace } from '../../../workspace/workspace.js';

export default class SynonymList extends TravsrCommand {
  static override summary = 'List the synonym pairs the searches of this repository use';
  static override description =
    'Pairs from the retrieval.synonyms setting are marked "(retrieval.synonyms)" (origin "config" in --json). The JSON form (--json) is one that `travsr synonym import` reads back.';
  static override examples = ['<%= config.bin %> synonym list', '<%= config.bin %> synonym list --json > synonyms.json'];
  static override flags = {
    repo: Flags.string({ description: 'repository (default: the current directory)' }),
    json: Flags.boolean({ description: 'print JSON', default: false }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(SynonymList);
    const ws = await openWorkspace(flags.repo ?? process.cwd(), { readonly: true });
    try {
      const pairs = ws.store.listSynonyms();
      if (flags.json) {
        this.log(JSON.stringify({ synonyms: pairs }, null, 2));
        return;
      }
      if (pairs.length === 0) {
        this.log('no synonyms; add some with `travsr synonym add <word> <synonym…>` or `travsr synonym import <file>`');
        return;
      }
      const byTerm = new Map<string, string[]>();
      for (const p of pairs)
        byTerm.set(p.term, [...(byTerm.get(p.term) ?? []), p.origin === 'config' ? `${p.synonym} (retrieval.synonyms)` : p.synonym]);
      for (const [term, synonyms] of byTerm) this.log(`${term} = ${synonyms.join(', ')}`);
    } finally {
      ws.close();
    }
  }
}
