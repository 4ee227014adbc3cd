import { resolve } from 'node:path';
import { Args, Flags } from '@oclif/core';
import { serveRegistry } from '@travsr/registry';
import { TravsrCommand } from '../../base-command.js';

export default class RegistryServe extends TravsrCommand {
  static override summary = 'Serve a registry directory over HTTP (read-only) until interrupted';
  static override description =
    'Serves only the registry layout (index.json, SHA256SUMS, SHA256SUMS.sig, plugins/, artifacts/) with GET and HEAD, ETags, conditional requests and byte ranges. Fit to run behind a web server that adds TLS. Prints the URL on stderr, then one line per request unless --quiet; stops on Ctrl-C or SIGTERM.';
  static override examples = [
    '<%= config.bin %> registry serve /srv/registry',
    '<%= config.bin %> registry serve /srv/registry --host 0.0.0.0 --port 8080 --quiet',
  ];
  static override args = { dir: Args.string({ required: true, description: 'registry directory' }) };
  static override flags = {
    port: Flags.integer({ default: 7434, min: 0, max: 65535, description: 'port to listen on (0: any free port)' }),
    host: Flags.string({ default: '127.0.0.1', description: 'address to listen on' }),
    quiet: Flags.boolean({ default: false, description: 'do not log requests' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(RegistryServe);
    const dir = resolve(args.dir);
    const server = await serveRegistry({
      dir,
      host: flags.host,
      port: flags.port,
      ...(flags.quiet
        ? {}
        : {
            onRequest: (r) =>
              this.logToStderr(
                `${new Date().toISOString()} ${r.remoteAddress} ${r.method} ${r.url} ${r.status} ${r.bytes}${r.range ? ` (${r.range})` : ''} ${r.durationMs.toFixed(1)}ms`,
              ),
          }),
    });
    this.logToStderr(`travsr registry: serving ${dir} at ${server.url} (Ctrl-C to stop)`);
    await new Promise<void>((done) => {
      process.once('SIGINT', () => done());
      process.once('SIGTERM', () => done());
    });
    await server.close();
  }
}
