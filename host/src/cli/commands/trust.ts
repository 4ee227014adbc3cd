import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Args, Flags } from '@oclif/core';
import { TravsrCommand } from '../base-command.js';
import {
  CONFIG_KEYS,
  formatConfigValue,
  isSecurityKey,
  listTrustedRepositories,
  readConfigFile,
  repoConfigPath,
  reviewRepoConfig,
  revokeRepositoryTrust,
  trustRepository,
  trustStorePath,
} from '../../config/index.js';
import { findRepoRoot } from '../../git/index.js';

export default class Trust extends TravsrCommand {
  static override summary = "Honour the security settings of a repository's own .travsr/config.toml (like direnv allow)";
  static override description = `A repository's .travsr/config.toml can set keys that run code, widen the sandbox or choose where plugins come from (${CONFIG_KEYS.filter(isSecurityKey).join(', ')}; \`travsr config list\` marks them with *). Until you trust the repository they are ignored, with a warning. \`travsr trust\` shows those keys, then records the repository's real path and the sha256 of the file in ~/.travsr/trusted-repositories.json; any later change to the file revokes the trust until you review it and run \`travsr trust\` again.`;
  static override examples = [
    '<%= config.bin %> trust',
    '<%= config.bin %> trust ../other-repo --json',
    '<%= config.bin %> trust --revoke',
    '<%= config.bin %> trust --list',
  ];
  static override args = {
    path: Args.directory({ description: 'repository (default: the current directory)', default: '.', exists: true }),
  };
  static override flags = {
    revoke: Flags.boolean({ default: false, description: 'forget the trust in the repository', exclusive: ['list'] }),
    list: Flags.boolean({ default: false, description: 'list the trusted repositories and whether their file changed since' }),
    json: Flags.boolean({ default: false, description: 'print JSON' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Trust);
    if (flags.list) return this.list(flags.json);
    const abs = resolve(args.path);
    const root = (await findRepoRoot(abs)) ?? abs;
    if (flags.revoke) {
      const revoked = revokeRepositoryTrust(root);
      if (flags.json) this.log(JSON.stringify({ root, revoked, store: trustStorePath() }, null, 2));
      else this.log(revoked ? `no longer trusted: ${root} (its security settings are ignored again)` : `${root} was not trusted`);
      return;
    }
    const review = reviewRepoConfig(root);
    for (const w of review.warnings) this.logToStderr(`warning: ${w.message}`);
    if (!review.exists || review.sha256 === undefined) {
      if (flags.json) this.log(JSON.stringify({ root: review.root, file: review.file, trusted: false, securityKeys: [] }, null, 2));
      else this.log(`nothing to trust: ${review.file} does not exist, so ${review.root} runs with your own settings`);
      return;
    }
    const record = trustRepository(review.root, review.sha256);
    if (flags.json) {
      this.log(
        JSON.stringify(
          {
            root: record.root,
            file: review.file,
            sha256: record.configSha256,
            trustedAt: record.trustedAt,
            store: trustStorePath(),
            securityKeys: review.securityKeys,
          },
          null,
          2,
        ),
      );
      return;
    }
    if (review.securityKeys.length === 0)
      this.log(`${review.file} sets no security keys today; trusted as it is (sha256 ${review.sha256.slice(0, 12)}…)`);
    else {
      this.log(`trusting ${review.file} (sha256 ${review.sha256.slice(0, 12)}…); these settings now count in ${review.root}:`);
      for (const k of review.securityKeys) this.log(`  ${k.key} = ${formatConfigValue(k.value)}  (${k.origin})`);
    }
    this.log(`recorded in ${trustStorePath()}; any change to the file revokes this until you review it and run \`travsr trust\` again`);
  }

  private list(json: boolean): void {
    const rows = listTrustedRepositories().map((r) => {
      const file = repoConfigPath(r.root);
      const now = existsSync(file) ? readConfigFile(file) : undefined;
      const state = now === undefined ? 'missing' : now.sha256 === r.configSha256 ? 'trusted' : 'changed';
      return { ...r, file, state };
    });
    if (json) {
      this.log(JSON.stringify({ store: trustStorePath(), repositories: rows }, null, 2));
      return;
    }
    if (rows.length === 0) {
      this.log('no repository is trusted');
      return;
    }
    for (const r of rows) {
      const note =
        r.state === 'changed'
          ? '  (file changed since: not trusted until `travsr trust` again)'
          : r.state === 'missing'
            ? '  (no config file now)'
            : '';
      this.log(`${r.state.padEnd(8)} ${r.root}  trusted ${r.trustedAt}${note}`);
    }
  }
}
