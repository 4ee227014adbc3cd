import { Flags } from '@oclif/core';
import { TravsrCommand } from '../base-command.js';
import { MCP_HTTP_FLAGS } from '../shared/mcp-http-flags.js';

export default class Serve extends TravsrCommand {
  static override summary = 'Run the daemon in the foreground (what `travsr daemon start` runs in the background)';
  static override description = `The daemon watches every repository \`travsr init\` set up (or --repo), keeps its graph in step with
the working tree, and answers the CLI, \`travsr mcp\` and the post-commit hook over a Unix socket in ~/.travsr/daemon/
(mode 0600). Stop it with Ctrl-C, SIGTERM or \`travsr daemon stop\`.`;
  static override examples = [
    '<%= config.bin %> serve',
    '<%= config.bin %> serve --repo ~/src/api',
    '<%= config.bin %> serve --mcp-http 127.0.0.1:7433',
  ];
  static override flags = {
    repo: Flags.directory({ multiple: true, exists: true, description: 'manage only this repository (repeatable)' }),
    listen: Flags.string({ description: 'also serve on TCP at host:port (needs --token-file); never without a token' }),
    'token-file': Flags.file({ exists: true, description: 'file holding the token TCP clients must present (with --listen)' }),
    ...MCP_HTTP_FLAGS,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Serve);
    const { serveDaemon } = await import('../../daemon/serve-action.js');
    await serveDaemon({
      ...(flags.repo ? { repos: flags.repo } : {}),
      ...(flags.listen !== undefined ? { listen: flags.listen } : {}),
      ...(flags['token-file'] !== undefined ? { tokenFile: flags['token-file'] } : {}),
      ...(flags['mcp-http'] !== undefined ? { mcpHttp: flags['mcp-http'], mcpNoAuth: flags['mcp-no-auth'] === true } : {}),
    });
  }
}
