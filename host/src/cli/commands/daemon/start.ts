import { resolve } from 'node:path';
import { Flags } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import { MCP_HTTP_FLAGS } from '../../shared/mcp-http-flags.js';

export default class DaemonStart extends TravsrCommand {
  static override summary = 'Start the daemon in the background (one per user; a running one of another build is restarted)';
  static override examples = [
    '<%= config.bin %> daemon start',
    '<%= config.bin %> daemon start --repo ~/src/api',
    '<%= config.bin %> daemon start --mcp-http 127.0.0.1:7433',
  ];
  static override flags = {
    repo: Flags.directory({ multiple: true, exists: true, description: 'manage only this repository (repeatable)' }),
    json: Flags.boolean({ default: false, description: 'print JSON' }),
    ...MCP_HTTP_FLAGS,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(DaemonStart);
    const { startDetachedDaemon } = await import('../../../daemon/daemon-control.js');
    const out = await startDetachedDaemon({
      serveArgs: [
        ...(flags.repo ?? []).flatMap((r) => ['--repo', resolve(r)]),
        ...(flags['mcp-http'] !== undefined ? ['--mcp-http', flags['mcp-http']] : []),
        ...(flags['mcp-no-auth'] ? ['--mcp-no-auth'] : []),
      ],
    });
    const status = await out.client.status();
    out.client.close();
    if (flags.json) {
      this.log(
        JSON.stringify({
          outcome: out.kind,
          pid: status.daemon.pid,
          endpoint: status.endpoint,
          ...(status.mcpHttpUrl ? { mcpHttpUrl: status.mcpHttpUrl } : {}),
          repos: status.repos.map((r) => r.root),
        }),
      );
      return;
    }
    this.log(
      `${out.kind === 'started' ? 'daemon started' : 'daemon already running'} (pid ${status.daemon.pid}) on ${status.endpoint}, managing ${status.repos.length} repositor${status.repos.length === 1 ? 'y' : 'ies'}`,
    );
    if (status.mcpHttpUrl) this.log(`MCP over HTTP: ${status.mcpHttpUrl}`);
    else if (out.kind === 'running' && flags['mcp-http'] !== undefined)
      this.log(`it serves no MCP over HTTP: run \`travsr daemon stop\`, then start it again with --mcp-http`);
  }
}
