import { Args, Flags } from '@oclif/core';
import { TravsrCommand } from '../../../base-command.js';
import { TokenStore } from '../../../../mcp/token-store.js';

export default class McpTokenRemove extends TravsrCommand {
  static override summary = 'Remove a bearer token of the MCP HTTP server; clients using it are refused from their next request';
  static override examples = ['<%= config.bin %> mcp token remove ci'];
  static override args = { name: Args.string({ required: true, description: 'the name of the token (see `travsr mcp token list`)' }) };
  static override flags = { json: Flags.boolean({ default: false, description: 'print JSON' }) };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(McpTokenRemove);
    const store = TokenStore.load();
    const removed = store.remove(args.name);
    if (flags.json) {
      this.log(JSON.stringify({ removed: removed.name, file: store.path }, null, 2));
      return;
    }
    this.log(`Removed MCP token "${removed.name}" from ${store.path}; clients using it are refused from their next request`);
  }
}
