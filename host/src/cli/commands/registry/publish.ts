import { resolve } from 'node:path';
import { Args, Flags } from '@oclif/core';
import { PLATFORMS, publishArtifact, readSigningKey, type Platform } from '@travsr/registry';
import { TravsrCommand } from '../../base-command.js';
import { loadTrustedKeys, trustedKeyFlag } from '../../shared/trusted-key-flags.js';

export default class RegistryPublish extends TravsrCommand {
  static override summary = 'Publish a packed plugin into a registry directory and sign it';
  static override description =
    'Checks the registry against its signature first, extracts the artifact as a client would, then adds artifacts/<id>-<version>-<platform>.tgz with its SBOM (the .cdx.json `travsr plugin pack` wrote beside it, whose SHA-256 goes into the signed version document) and plugins/<id>/<version>.json, updates index.json and re-signs SHA256SUMS. A published version never changes; publishing the same bytes again does nothing. Creates the registry on first use.';
  static override examples = [
    '<%= config.bin %> registry publish example-lua-0.1.0-any.tgz --registry /srv/registry --key ~/.secrets/registry.key',
  ];
  static override args = { artifact: Args.string({ required: true, description: 'the .tgz from `travsr plugin pack`' }) };
  static override flags = {
    registry: Flags.string({ required: true, description: 'registry directory' }),
    key: Flags.string({ required: true, description: 'private signing key (from `travsr registry keygen`)' }),
    platform: Flags.string({ options: [...PLATFORMS], description: 'platform of the artifact (default: from its file name, else any)' }),
    'trusted-key': trustedKeyFlag('public key the registry may currently be signed with, besides --key (repeatable; for key rotation)'),
    sbom: Flags.string({ description: 'the artifact’s CycloneDX SBOM (default: the .cdx.json beside it, when there is one)' }),
    'no-sbom': Flags.boolean({ default: false, exclusive: ['sbom'], description: 'publish without an SBOM' }),
    json: Flags.boolean({ default: false, description: 'print the result as JSON' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(RegistryPublish);
    const key = await readSigningKey(flags.key);
    const registry = resolve(flags.registry);
    const result = await publishArtifact(registry, resolve(args.artifact), key, {
      trustedKeys: await loadTrustedKeys(flags['trusted-key'] ?? [], key),
      ...(flags.platform ? { platform: flags.platform as Platform } : {}),
      ...(flags['no-sbom'] ? { sbom: false as const } : flags.sbom ? { sbom: resolve(flags.sbom) } : {}),
    });
    if (flags.json) {
      this.log(JSON.stringify({ registry, keyId: key.keyId, ...result }, null, 2));
      return;
    }
    const { id, version, artifact } = result;
    this.log(
      result.changed
        ? `published ${id}@${version} (${artifact.platform}) to ${registry}, signed with ${key.keyId}`
        : `${id}@${version} (${artifact.platform}) is already in ${registry} with these bytes; nothing changed`,
    );
    this.log(`  artifact   ${artifact.file}`);
    this.log(`  sha256     ${artifact.sha256}`);
    this.log(`  size       ${artifact.size} bytes`);
    this.log(`  tree hash  ${artifact.treeHash}`);
    this.log(
      artifact.sbom
        ? `  sbom       ${artifact.sbom.file} (CycloneDX ${artifact.sbom.specVersion}, ${artifact.sbom.components} packages, sha256 ${artifact.sbom.sha256})`
        : '  sbom       none (publish the .cdx.json `travsr plugin pack` wrote beside the artifact to record what it contains)',
    );
  }
}
