import { statSync } from 'node:fs';
import { Args, Flags } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import {
  describeConfigSource,
  formatConfigValue,
  isConfigKey,
  loadConfig,
  repoConfigPath,
  unsetConfigValue,
  userConfigPath,
  keepTrustAfterOwnEdit,
  ownEditTrustNote,
  reviewIfValid,
} from '../../../config/index.js';

export default class ConfigUnset extends TravsrCommand {
  static override summary =
    "Remove a configuration value from the repository's .travsr/config.toml (or ~/.travsr/config.toml with --global)";
  static override description =
    'The key then falls back to the next layer (user file, then the built-in default). An unknown key that a warning pointed at can be removed too. The file is rewritten atomically; its comments are not kept.';
  static override examples = [
    '<%= config.bin %> config unset index.workers',
    '<%= config.bin %> config unset plugins.prefer.python',
    '<%= config.bin %> config unset log.level --global',
  ];
  static override args = { key: Args.string({ required: true, description: 'a configuration key, e.g. index.workers' }) };
  static override flags = {
    global: Flags.boolean({
      description: 'edit ~/.travsr/config.toml instead of the repository file',
      default: false,
      exclusive: ['repo'],
    }),
    repo: Flags.string({ description: 'repository whose .travsr/config.toml to edit (default: the current directory)' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ConfigUnset);
    const repo = flags.repo ?? process.cwd();
    if (!flags.global && !isDirectory(repo)) this.error(`${repo} is not a directory`, { exit: 2 });
    const path = flags.global ? userConfigPath() : repoConfigPath(repo);
    const before = flags.global ? undefined : reviewIfValid(repo);
    const removed = unsetConfigValue(path, args.key);
    this.log(removed ? `${args.key} removed from ${path}` : `${args.key} was not set in ${path}`);
    if (!flags.global && removed) {
      const note = ownEditTrustNote(keepTrustAfterOwnEdit(before), path);
      if (note) this.logToStderr(note);
    }
    if (!isConfigKey(args.key)) return;
    try {
      const v = loadConfig({ repoRoot: repo }).values[args.key];
      this.log(`${args.key} = ${formatConfigValue(v.value)}  (${describeConfigSource(v)})`);
    } catch {
      // Another file is broken; the next command that reads the configuration reports it.
    }
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
