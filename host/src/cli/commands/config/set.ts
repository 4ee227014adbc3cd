import { statSync } from 'node:fs';
import { Args, Flags } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import {
  describeConfigSource,
  formatConfigValue,
  repoConfigPath,
  setConfigValue,
  shadowingValue,
  userConfigPath,
  keepTrustAfterOwnEdit,
  ownEditTrustNote,
  reviewIfValid,
} from '../../../config/index.js';

export default class ConfigSet extends TravsrCommand {
  static override summary = "Set a configuration value in the repository's .travsr/config.toml (or ~/.travsr/config.toml with --global)";
  static override description =
    'The value is read like an environment variable: lists are comma-separated (`a/**,b/**`), booleans true/false, tables `language=plugin-id,…`; one entry of a table is `plugins.prefer.<language>`. The file is rewritten atomically; its comments are not kept.';
  static override examples = [
    '<%= config.bin %> config set index.workers 4',
    '<%= config.bin %> config set index.exclude "vendor/**,*.gen.ts"',
    '<%= config.bin %> config set plugins.prefer.python lang-python',
    '<%= config.bin %> config set log.level info --global',
  ];
  static override args = {
    key: Args.string({ required: true, description: 'a configuration key, e.g. index.workers' }),
    value: Args.string({ required: true, description: 'the value, as text' }),
  };
  static override flags = {
    global: Flags.boolean({
      description: 'write ~/.travsr/config.toml instead of the repository file',
      default: false,
      exclusive: ['repo'],
    }),
    repo: Flags.string({ description: 'repository whose .travsr/config.toml to write (default: the current directory)' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ConfigSet);
    const repo = flags.repo ?? process.cwd();
    if (!flags.global && !isDirectory(repo)) this.error(`${repo} is not a directory`, { exit: 2 });
    const path = flags.global ? userConfigPath() : repoConfigPath(repo);
    const before = flags.global ? undefined : reviewIfValid(repo);
    const written = setConfigValue(path, args.key, args.value);
    this.log(`${written.key} = ${formatConfigValue(written.value)}  (written to ${path})`);
    if (!flags.global) {
      const note = ownEditTrustNote(keepTrustAfterOwnEdit(before), path);
      if (note) this.logToStderr(note);
    }
    const hidden = shadowingValue(args.key, flags.global ? 'user' : 'repo', { repoRoot: repo });
    if (hidden)
      this.logToStderr(
        `note: here the value is ${formatConfigValue(hidden.value)}, from ${describeConfigSource(hidden)}, which takes precedence`,
      );
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
