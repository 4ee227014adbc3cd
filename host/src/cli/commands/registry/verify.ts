import { resolve } from 'node:path';
import { Flags } from '@oclif/core';
import { RegistryError, RegistryErrorCode, SUMS_FILE, verifyRegistryDirectory } from '@travsr/registry';
import { TravsrCommand } from '../../base-command.js';
import { loadTrustedKeys, trustedKeyFlag } from '../../shared/trusted-key-flags.js';

export default class RegistryVerify extends TravsrCommand {
  static override summary = "Check a registry directory against its signature and every file's SHA-256";
  static override description =
    'Verifies SHA256SUMS.sig under the trusted keys, then that every listed file exists with its signed SHA-256 and that no file of the layout is unlisted. Exits 1 with the first problem found.';
  static override examples = ['<%= config.bin %> registry verify --registry /srv/registry --trusted-key registry.key.pub'];
  static override flags = {
    registry: Flags.string({ required: true, description: 'registry directory' }),
    'trusted-key': trustedKeyFlag('public key to accept signatures from (repeatable)', true),
    json: Flags.boolean({ default: false, description: 'print the result as JSON' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(RegistryVerify);
    const registry = resolve(flags.registry);
    const verified = await verifyRegistryDirectory(registry, await loadTrustedKeys(flags['trusted-key'] ?? []));
    if (!verified.signedBy) {
      // An empty directory verifies trivially; for this command that is almost always a wrong path.
      throw new RegistryError(
        RegistryErrorCode.RegistryEmpty,
        `${registry} is not a registry (no ${SUMS_FILE}); check the path, or publish a plugin to create it`,
      );
    }
    const plugins = Object.entries(verified.index.plugins).map(([id, e]) => ({ id, latest: e.latest, versions: e.versions }));
    if (flags.json) {
      this.log(JSON.stringify({ ok: true, registry, signedBy: verified.signedBy, files: verified.sums.size, plugins }, null, 2));
      return;
    }
    this.log(
      `ok: ${registry} — ${verified.sums.size} files match ${SUMS_FILE}, signed by ${verified.signedBy.keyId} at ${verified.signedBy.created}`,
    );
    for (const p of plugins) this.log(`  ${p.id}  ${p.versions.join(', ')} (latest ${p.latest})`);
  }
}
