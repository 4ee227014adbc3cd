import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Args, Flags } from '@oclif/core';
import { generateSigningKey, writeSigningKey } from '@travsr/registry';
import { TravsrCommand } from '../../base-command.js';

export default class RegistryKeygen extends TravsrCommand {
  static override summary = 'Create an ed25519 key to sign a plugin registry';
  static override description =
    'Writes the private key to <file> (mode 0600; keep it secret: whoever holds it can publish) and its public half to <file>.pub, the trusted-key entry clients need. Never overwrites a key.';
  static override examples = ['<%= config.bin %> registry keygen ~/.secrets/registry.key'];
  static override args = { file: Args.string({ required: true, description: 'where to write the private key' }) };
  static override flags = { json: Flags.boolean({ default: false, description: 'print the result as JSON' }) };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(RegistryKeygen);
    const file = resolve(args.file);
    const key = generateSigningKey();
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    await writeSigningKey(file, key);
    const publicKeyFile = `${file}.pub`;
    if (flags.json) {
      this.log(JSON.stringify({ keyId: key.keyId, publicKey: key.publicKey, file, publicKeyFile }, null, 2));
      return;
    }
    this.log(`created registry key ${key.keyId}`);
    this.log(`  private key  ${file} (mode 0600: keep it secret)`);
    this.log(`  public key   ${publicKeyFile} (give it to clients as a trusted key)`);
  }
}
