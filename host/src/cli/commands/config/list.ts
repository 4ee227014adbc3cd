import { Flags } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import { CONFIG_KEYS, formatConfigValue, isSecurityKey, loadConfig } from '../../../config/index.js';

export default class ConfigList extends TravsrCommand {
  static override summary = 'Show every configuration key, its value and where the value comes from';
  static override description =
    'Precedence, highest first: command-line flag, environment variable (TRAVSR_…), <repo>/.travsr/config.toml, ~/.travsr/config.toml, built-in default. Unknown keys in a file are reported as warnings on stderr. Security keys (marked * in the KEY column) of a repository file count only after `travsr trust`; until then they are listed with the source `ignored`.';
  static override examples = ['<%= config.bin %> config list', '<%= config.bin %> config list --json --repo ../other'];
  static override flags = {
    repo: Flags.string({ description: 'repository whose .travsr/config.toml to read (default: the current directory)' }),
    json: Flags.boolean({ description: 'print JSON', default: false }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(ConfigList);
    const cfg = loadConfig({ repoRoot: flags.repo ?? process.cwd() });
    for (const w of cfg.warnings) this.logToStderr(`warning: ${w.message}`);
    for (const i of cfg.ignored) this.logToStderr(`warning: ${i.message}`);
    if (flags.json) {
      const security = CONFIG_KEYS.filter(isSecurityKey);
      this.log(
        JSON.stringify(
          {
            files: cfg.files,
            repoTrust: cfg.repoTrust ?? null,
            values: cfg.values,
            ignored: cfg.ignored,
            securityKeys: security,
            warnings: cfg.warnings,
          },
          null,
          2,
        ),
      );
      return;
    }
    const rows: (readonly [string, string, string, string])[] = [];
    for (const key of CONFIG_KEYS) {
      const v = cfg.values[key];
      const name = isSecurityKey(key) ? `${key} *` : key;
      rows.push([name, formatConfigValue(v.value), v.source, v.origin ?? '']);
      // The repository's value that does not count, right under the one that does.
      for (const i of cfg.ignored.filter((x) => x.key === key))
        rows.push([
          name,
          formatConfigValue(i.value),
          'ignored',
          `${i.origin} (${i.reason === 'changed' ? 'file changed since `travsr trust`' : 'run `travsr trust` to honour it'})`,
        ]);
    }
    const width = (i: 0 | 1 | 2) => Math.max(...rows.map((r) => r[i].length), ['KEY', 'VALUE', 'SOURCE'][i]?.length ?? 0);
    const line = (r: readonly [string, string, string, string]) =>
      `${r[0].padEnd(width(0))}  ${r[1].padEnd(width(1))}  ${r[2].padEnd(width(2))}  ${r[3]}`.trimEnd();
    this.log(line(['KEY', 'VALUE', 'SOURCE', 'ORIGIN']));
    for (const r of rows) this.log(line(r));
    this.log('* security key: from a repository file only after `travsr trust`');
  }
}
