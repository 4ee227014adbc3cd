import { Args, Flags } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import { CONFIG_SCHEMA, describeConfigSource, formatConfigValue, isConfigKey, loadConfig, unknownKeyError } from '../../../config/index.js';

export default class ConfigGet extends TravsrCommand {
  static override summary = 'Show one configuration value and where it comes from';
  static override description =
    'Prints `key = value  (source: origin)`: the file and line, the environment variable or the flag that set it, or `default`. See `travsr config list` for every key.';
  static override examples = ['<%= config.bin %> config get index.workers', '<%= config.bin %> config get log.level --json'];
  static override args = { key: Args.string({ required: true, description: 'a configuration key, e.g. index.workers' }) };
  static override flags = {
    repo: Flags.string({ description: 'repository whose .travsr/config.toml to read (default: the current directory)' }),
    json: Flags.boolean({ description: 'print JSON', default: false }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ConfigGet);
    if (!isConfigKey(args.key)) throw unknownKeyError(args.key);
    const cfg = loadConfig({ repoRoot: flags.repo ?? process.cwd() });
    for (const w of cfg.warnings) this.logToStderr(`warning: ${w.message}`);
    for (const i of cfg.ignored) this.logToStderr(`warning: ${i.message}`);
    const v = cfg.values[args.key];
    const spec = CONFIG_SCHEMA[args.key];
    if (flags.json) {
      const ignored = cfg.ignored.find((i) => i.key === args.key);
      this.log(
        JSON.stringify(
          { key: args.key, ...v, env: spec.env, description: spec.description, trust: spec.trust, ...(ignored ? { ignored } : {}) },
          null,
          2,
        ),
      );
      return;
    }
    this.log(`${args.key} = ${formatConfigValue(v.value)}  (${describeConfigSource(v)})`);
  }
}
