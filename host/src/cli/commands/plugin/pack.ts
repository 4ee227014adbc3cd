import { resolve } from 'node:path';
import { Args, Flags } from '@oclif/core';
import { packPlugin, PLATFORMS, type Platform } from '@travsr/registry';
import { TravsrCommand } from '../../base-command.js';

export default class PluginPack extends TravsrCommand {
  static override summary = 'Pack a plugin directory into a registry artifact (.tgz)';
  static override description =
    'Writes <out>/<id>-<version>-<platform>.tgz and its CycloneDX SBOM <id>-<version>-<platform>.cdx.json (every npm package the build bundled and every file it copied, from the build record buildPlugin leaves in dist/build-record.json): the plugin without node_modules/, .git/, test/ and snapshots/, with sorted entries, fixed dates and owners, so the same directory always gives the same bytes. Refuses symlinks that leave the plugin, special files, unportable names and a missing entrypoint. Then: `travsr registry publish <file> --registry <dir> --key <key>`.';
  static override examples = [
    '<%= config.bin %> plugin pack plugins/example-lua --out dist-artifacts',
    '<%= config.bin %> plugin pack ./lang-rust --platform linux-x64 --json',
  ];
  static override args = {
    dir: Args.string({ required: true, description: 'plugin directory (holds travsr-plugin.json)' }),
  };
  static override flags = {
    out: Flags.string({ default: '.', description: 'directory to write the .tgz to' }),
    platform: Flags.string({ options: [...PLATFORMS], default: 'any', description: 'platform the plugin is built for' }),
    json: Flags.boolean({ default: false, description: 'print the result as JSON' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PluginPack);
    const packed = await packPlugin(args.dir, resolve(flags.out), { platform: flags.platform as Platform });
    const { id, version } = packed.manifest;
    if (flags.json) {
      this.log(
        JSON.stringify(
          {
            id,
            version,
            platform: packed.platform,
            file: packed.file,
            sha256: packed.sha256,
            size: packed.size,
            treeHash: packed.treeHash,
            files: packed.files,
            sbom: packed.sbom,
          },
          null,
          2,
        ),
      );
      return;
    }
    this.log(`packed ${id}@${version} (${packed.platform}): ${packed.file}`);
    this.log(`  sha256     ${packed.sha256}`);
    this.log(`  size       ${packed.size} bytes, ${packed.files.length} files`);
    this.log(`  tree hash  ${packed.treeHash}`);
    this.log(
      `  sbom       ${packed.sbom.file} (CycloneDX ${packed.sbom.specVersion}, ${packed.sbom.components} packages${packed.sbom.aggregate === 'unknown' ? '; no build record, so what the bundle holds is unknown' : packed.sbom.aggregate === 'incomplete' ? '; incomplete: some files of the build record are not here, pack where the plugin was built' : ''})`,
    );
  }
}
