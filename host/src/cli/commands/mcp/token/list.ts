import { Flags } from '@oclif/core';
import { TravsrCommand } from '../../../base-command.js';
import { TokenStore } from '../../../../mcp/token-store.js';

/** How much of a token's sha256 is shown: enough to tell tokens apart, too little to matter. */
const HASH_PREFIX = 12;

export default class McpTokenList extends TravsrCommand {
  static override summary = 'List the bearer tokens of the MCP HTTP server (names and access, never the tokens)';
  static override examples = ['<%= config.bin %> mcp token list', '<%= config.bin %> mcp token list --json'];
  static override flags = { json: Flags.boolean({ default: false, description: 'print JSON' }) };

  async run(): Promise<void> {
    const { flags } = await this.parse(McpTokenList);
    const store = TokenStore.load();
    const tokens = store.list().map((e) => ({
      name: e.name,
      corpora: e.corpora,
      groups: e.groups,
      createdAt: e.createdAt,
      sha256Prefix: e.sha256.slice(0, HASH_PREFIX),
    }));
    if (flags.json) {
      this.log(JSON.stringify({ file: store.path, tokens }, null, 2));
      return;
    }
    if (tokens.length === 0) {
      this.log(`no MCP tokens in ${store.path}; create one with \`travsr mcp token add <name> --corpus <corpus>\``);
      return;
    }
    const width = Math.max(4, ...tokens.map((t) => t.name.length));
    this.log(`${'NAME'.padEnd(width)}  ${'CREATED'.padEnd(24)}  ${'SHA256'.padEnd(HASH_PREFIX + 1)}  ACCESS`);
    for (const t of tokens) {
      const corpora = t.corpora === '*' ? 'all corpora' : t.corpora.join(', ');
      const groups = t.groups.length ? `; groups ${t.groups.join(', ')}` : '';
      this.log(`${t.name.padEnd(width)}  ${t.createdAt.padEnd(24)}  ${`${t.sha256Prefix}…`}  ${corpora}${groups}`);
    }
    this.log(`(${tokens.length} token${tokens.length === 1 ? '' : 's'}, in ${store.path})`);
  }
}
