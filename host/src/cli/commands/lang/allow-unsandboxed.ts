import { Args, Flags } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import { langTomlPath, readLangToml, writeLangToml } from '../../../catalog/lang-toml.js';

export default class LangAllowUnsandboxed extends TravsrCommand {
  static override summary = 'Allow (or revoke) running the plugin of a language without a sandbox';
  static override description =
    "Plugins run inside an OS sandbox. Some analyzers cannot (their build tools need more than any tier grants). This records your explicit permission in ~/.travsr/lang.toml; without it Travsr refuses to run a plugin unsandboxed. The plugin then runs with your user's full access: grant it only to plugins you trust.";
  static override examples = ['<%= config.bin %> lang allow-unsandboxed java', '<%= config.bin %> lang allow-unsandboxed java --revoke'];
  static override args = { lang: Args.string({ required: true, description: 'language id, e.g. java' }) };
  static override flags = { revoke: Flags.boolean({ description: 'take the permission back', default: false }) };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(LangAllowUnsandboxed);
    if (!/^[a-z0-9][a-z0-9+#._-]*$/.test(args.lang))
      this.error(`"${args.lang}" is not a language id (lowercase letters, digits, + # . _ -)`, { exit: 2 });
    const path = langTomlPath();
    const reg = readLangToml(path);
    const entry = reg.languages[args.lang] ?? { allowUnsandboxed: false };
    entry.allowUnsandboxed = !flags.revoke;
    reg.languages[args.lang] = entry;
    writeLangToml(reg, path);
    this.log(
      flags.revoke
        ? `${args.lang}: plugins run sandboxed only (recorded in ${path})`
        : `${args.lang}: plugins may run UNSANDBOXED, with your user's full access (recorded in ${path}); revoke with \`travsr lang allow-unsandboxed ${args.lang} --revoke\``,
    );
  }
}
