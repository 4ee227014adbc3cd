import { resolve } from 'node:path';
import { Flags } from '@oclif/core';
import { readSigningKey, signRegistry } from '@travsr/registry';
import { TravsrCommand } from '../../base-command.js';
import { loadTrustedKeys, trustedKeyFlag } from '../../shared/trusted-key-flags.js';

export default class RegistrySign extends TravsrCommand {
  static override summary = 'Re-sign a registry with a (new) key: the key-rotation step';
  static override description =
    'Checks the registry against its current signature (made by --key or one of the --trusted-key keys), then signs the same SHA256SUMS with --key. To rotate: create the new key, let clients trust both keys, run this with the new key and --trusted-key <old>.pub, then have clients retire the old key.';
  static override examples = [
    '<%= config.bin %> registry sign --registry /srv/registry --key ~/.secrets/registry-2027.key --trusted-key ~/.secrets/registry.key.pub',
  ];
  static override flags = {
    registry: Flags.string({ required: true, description: 'registry directory' }),
    key: Flags.string({ required: true, description: 'private key to sign with' }),
    'trusted-key': trustedKeyFlag('public key the registry may currently be signed with (repeatable; the old key when rotating)'),
    json: Flags.boolean({ default: false, description: 'print the result as JSON' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(RegistrySign);
    const key = await readSigningKey(flags.key);
    const registry = resolve(flags.registry);
    const signed = await signRegistry(registry, key, { trustedKeys: await loadTrustedKeys(flags['trusted-key'] ?? [], key) });
    if (flags.json) this.log(JSON.stringify({ registry, ...signed }, null, 2));
    else this.log(`signed ${registry} with ${signed.keyId} at ${signed.created}`);
  }
}
