import { Args, Flags } from '@oclif/core';
import { TravsrCommand } from '../../../base-command.js';
import { TokenStore } from '../../../../mcp/token-store.js';

export default class McpTokenAdd extends TravsrCommand {
  static override summary = 'Create a bearer token for the MCP HTTP server, limited to some corpora and groups';
  static override description =
    'The token is printed once and only its sha256 is kept, in ~/.travsr/mcp-tokens.json (mode 0600): copy it now. Clients send it as `Authorization: Bearer <token>`; a session sees only the corpora the token names, and of their nodes those whose ACL is empty or names one of its groups. A running server accepts the new token from its next request.';
  static override examples = [
    '<%= config.bin %> mcp token add ci --corpus github.com/acme/api',
    '<%= config.bin %> mcp token add alice --corpus github.com/acme/api --corpus github.com/acme/web --group eng',
    '<%= config.bin %> mcp token add admin --all-corpora --json',
  ];
  static override args = {
    name: Args.string({ required: true, description: 'a name for the token (letters, digits, . _ -), used to list and remove it' }),
  };
  static override flags = {
    corpus: Flags.string({
      multiple: true,
      multipleNonGreedy: true,
      description: 'a corpus the token may read (repeatable)',
      exclusive: ['all-corpora'],
    }),
    'all-corpora': Flags.boolean({ default: false, description: 'the token may read every corpus' }),
    group: Flags.string({ multiple: true, multipleNonGreedy: true, description: 'an ACL group the token holder belongs to (repeatable)' }),
    json: Flags.boolean({ default: false, description: 'print JSON (including the token, once)' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(McpTokenAdd);
    if (!flags['all-corpora'] && (flags.corpus ?? []).length === 0)
      this.error('say which corpora the token may read: --corpus <corpus> (repeatable) or --all-corpora', { exit: 2 });
    const store = TokenStore.load();
    const { token, entry } = store.add({
      name: args.name,
      corpora: flags['all-corpora'] ? '*' : (flags.corpus ?? []),
      groups: flags.group ?? [],
    });
    if (flags.json) {
      this.log(JSON.stringify({ ...entry, token, file: store.path, shownOnce: true }, null, 2));
      return;
    }
    const corpora = entry.corpora === '*' ? 'all corpora' : `corpora ${entry.corpora.join(', ')}`;
    const groups = entry.groups.length ? `groups ${entry.groups.join(', ')}` : 'no groups';
    this.log(`Created MCP token "${entry.name}" (${corpora}; ${groups}), stored as a hash in ${store.path}:`);
    this.log('');
    this.log(`  ${token}`);
    this.log('');
    this.log('This token will not be shown again: copy it now. Clients send it as `Authorization: Bearer <token>`.');
  }
}
