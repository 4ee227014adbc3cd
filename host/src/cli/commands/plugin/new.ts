import { Args, Flags } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import { bundlePlugin } from '../../../plugins/bundle-plugin.js';
import { createPlugin, defaultPluginId } from '../../../plugins/scaffold.js';

export default class PluginNew extends TravsrCommand {
  static override summary = 'Scaffold a new analyzer plugin that passes the conformance kit as generated';
  static override description =
    'Writes travsr-plugin.json, src/main.ts (a working line-based analyzer to replace with a real parser), sample sources and tests, bundles it into dist/main.js and records its golden snapshots. Then: `travsr plugin test <dir>`.';
  static override examples = ['<%= config.bin %> plugin new ./lang-mylang --language mylang --extension .my'];
  static override args = { dir: Args.string({ required: true, description: 'directory to create' }) };
  static override flags = {
    id: Flags.string({ description: 'plugin id (default: the directory name)' }),
    language: Flags.string({ description: 'language id the plugin analyzes', default: 'mylang' }),
    extension: Flags.string({ description: 'file extension it claims, with the dot', default: '.mylang' }),
    sdk: Flags.string({
      description:
        "@travsr/sdk dependency spec for the plugin's package.json (default: ^ this Travsr's SDK version, from the npm registry); e.g. file:../travsr/sdk",
    }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PluginNew);
    const id = flags.id ?? defaultPluginId(args.dir);
    const { snapshotTest } = await import('@travsr/sdk/testing');
    // Built in a staging directory and moved into place once complete: a failure leaves nothing behind.
    const { files } = await createPlugin(
      args.dir,
      { id, language: flags.language, extension: flags.extension, ...(flags.sdk === undefined ? {} : { sdk: flags.sdk }) },
      async (staging) => {
        await bundlePlugin(staging);
        await snapshotTest({ pluginDir: staging, update: true });
      },
    );
    this.log(`created plugin ${id} in ${args.dir}:`);
    for (const f of files) this.log(`  ${f}`);
    this.log('  dist/main.js (bundled)');
    this.log('  snapshots/output/ (golden)');
    this.log(`next: travsr plugin test ${args.dir}`);
  }
}
