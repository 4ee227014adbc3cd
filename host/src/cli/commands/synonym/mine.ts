import { Flags } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import { mineSynonyms } from '../../../synonyms/synonym-miner.js';
import { openWorkspace } from '../../../workspace/workspace.js';

export default class SynonymMine extends TravsrCommand {
  static override summary = "Propose synonyms from the repository's own code, for review; --apply adds them";
  static override description =
    'Reads the indexed text of every definition. Proposes the common programming abbreviations (cfg/config, req/request, msg/message…) whose two forms both occur here, and the short words that abbreviate a longer one (its first letters, or its first letter and consonants in order) and meet it in the same definitions far more often than chance. Pairs already known are left out. Without --apply nothing is written.';
  static override examples = [
    '<%= config.bin %> synonym mine',
    '<%= config.bin %> synonym mine --apply',
    '<%= config.bin %> synonym mine --json > proposals.json',
  ];
  static override flags = {
    repo: Flags.string({ description: 'repository (default: the current directory)' }),
    apply: Flags.boolean({ description: 'add every proposal to the synonyms', default: false }),
    'min-together': Flags.integer({ description: 'definitions that must hold both words of a pair found here', default: 3, min: 1 }),
    'min-lift': Flags.string({ description: 'how many times more often than chance a pair found here must meet', default: '10' }),
    json: Flags.boolean({ description: 'print JSON', default: false }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(SynonymMine);
    const minLift = Number(flags['min-lift']);
    if (!Number.isFinite(minLift) || minLift < 1)
      this.error(`--min-lift must be a number of at least 1, not ${flags['min-lift']}`, { exit: 2 });
    const ws = await openWorkspace(flags.repo ?? process.cwd(), flags.apply ? {} : { readonly: true });
    try {
      const proposals = mineSynonyms(ws.store, { minTogether: flags['min-together'], minLift });
      const added = flags.apply ? ws.store.addSynonyms(proposals.map((p) => ({ term: p.term, synonym: p.synonym }))) : 0;
      if (flags.json) {
        this.log(JSON.stringify({ proposals, applied: flags.apply, added }, null, 2));
        return;
      }
      if (proposals.length === 0) {
        this.log('no synonyms to propose');
        return;
      }
      for (const p of proposals)
        this.log(
          `${p.term} = ${p.synonym}  (${p.together} definition${p.together === 1 ? '' : 's'} hold both, ${p.lift}× chance; ${p.reason})`,
        );
      this.log(
        flags.apply
          ? `added ${added} pair${added === 1 ? '' : 's'}; \`travsr synonym remove\` takes one back`
          : `${proposals.length} proposal${proposals.length === 1 ? '' : 's'}; nothing written: review them, then \`travsr synonym mine --apply\` (or add the ones you want with \`travsr synonym add\`)`,
      );
    } finally {
      ws.close();
    }
  }
}
