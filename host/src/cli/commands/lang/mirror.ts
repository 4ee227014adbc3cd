import { Args } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import { langContext } from '../../../catalog/install-plugin.js';
import { mirrorRegistry } from '../../../catalog/mirror-registry.js';
import { registrySource } from '../../../catalog/registry-source.js';
import { jsonFlag, repoFlag, ignoredKeyWarnings } from '../../shared/lang-flags.js';

export default class LangMirror extends TravsrCommand {
  static override summary = 'Copy the plugin registry into a directory, verified, for offline or air-gapped use';
  static override description =
    'Checks the signature of `registry.url` (default: the built-in registry) and every file against the signed SHA256SUMS, writes them into DIR with the signing public key (registry-key.pub), and verifies the copy. Elsewhere: `travsr config set registry.url DIR` and `travsr config set registry.trustedKeys DIR/registry-key.pub`.';
  static override examples = ['<%= config.bin %> lang mirror /media/usb/travsr-registry'];
  static override args = { dir: Args.string({ required: true, description: 'new or empty directory' }) };
  static override flags = { repo: repoFlag, json: jsonFlag };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(LangMirror);
    const ctx = await langContext(flags.repo, false);
    for (const line of ignoredKeyWarnings(ctx)) this.logToStderr(line);
    const source = await registrySource(ctx.repoRoot);
    const r = await mirrorRegistry(source, args.dir);
    if (flags.json) {
      this.log(JSON.stringify({ source: source.name, ...r }, null, 2));
      return;
    }
    this.log(
      `mirrored ${source.name === 'builtin' ? 'the built-in registry' : source.name} to ${r.dir}: ${r.files} files, ${r.bytes} bytes, signed by ${r.signedBy}`,
    );
    this.log(`  use it: travsr config set registry.url ${r.dir} && travsr config set registry.trustedKeys ${r.keyFile}`);
  }
}
