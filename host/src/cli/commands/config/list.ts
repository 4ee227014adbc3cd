import { Flags } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import { CONFIG_KEYS, formatConfigValue, loadConfig } from '../../../config/index.js';

export default class ConfigList extends TravsrCommand {
  static override summary = 'Show every configuration key, its value and where the value comes from';
  static override description =
    'Precedence, highest first: command-line flag, environment variable (TRAVSR_…), <repo>/.travsr/config.toml, ~/.travsr/config.toml, built-in default. Unknown keys in a file are reported as warnings on stderr.';
  static override examples = ['<%= config.bin %> config list', '<%= config.bin %> config list --json --repo ../other'];
  static override flags = {
    repo: Flags.string({ description: 'repository whose .travsr/config.toml to read (default: the current directory)' }),
    json: Flags.boolean({ description: 'print JSON', default: false }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(ConfigList);
    const cfg = loadConfig({ repoRoot: flags.repo ?? process.cwd() });
    for (const w of cfg.warnings) this.logToStderr(`warning: ${w.message}`);
    if (flags.json) {
      this.log(JSON.stringify({ files: cfg.files, values: cfg.values, warnings: cfg.warnings }, null, 2));
      return;
    }
    const rows = CONFIG_KEYS.map((key) => {
      const v = cfg.values[key];
      return [key, formatConfigValue(v.value), v.source, v.origin ?? ''] as const;
    });
    const width = (i: 0 | 1 | 2) => Math.max(...rows.map((r) => r[i].length), ['KEY', 'VALUE', 'SOURCE'][i]?.length ?? 0);
    const line = (r: readonly [string, string, string, string]) =>
      `${r[0].padEnd(width(0))}  ${r[1].padEnd(width(1))}  ${r[2].padEnd(width(2))}  ${r[3]}`.trimEnd();
    this.log(line(['KEY', 'VALUE', 'SOURCE', 'ORIGIN']));
    for (const r of rows) this.log(line(r));
  }
}
