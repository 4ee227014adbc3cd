import { Flags } from '@oclif/core';
import type { InstallOutcome, LangContext } from '../../catalog/install-plugin.js';

/** Flags shared by the `lang` commands that read or change the repository's plugins.lock. */
export const repoFlag = Flags.string({
  description: 'repository whose .travsr/plugins.lock is honoured (default: the git work tree of the current directory)',
});
export const frozenFlag = Flags.boolean({
  default: false,
  description: 'fail (LOCK_WOULD_CHANGE) instead of changing .travsr/plugins.lock; for CI',
});
export const jsonFlag = Flags.boolean({ default: false, description: 'print the result as JSON' });

/** One stderr line per security key of the repository's config file that does not count (not trusted). */
export function ignoredKeyWarnings(ctx: LangContext): string[] {
  return ctx.ignoredKeys.map((i) => `warning: ${i.message}`);
}

/** Human lines describing an install. */
export function describeInstall(r: InstallOutcome, lockPath: string | undefined): string[] {
  const lines = [
    `${r.alreadyInstalled ? 'already installed' : 'installed'} ${r.id}@${r.version} from ${r.registry === 'builtin' ? 'the built-in registry' : r.registry}`,
    `  dir        ${r.dir}`,
    `  sha256     ${r.sha256}`,
    `  tree hash  ${r.treeHash}`,
  ];
  if (r.scope === 'repository')
    lines.push(
      `  for this repository only: its registry comes from the repository's .travsr/config.toml (trusted), so ~/.travsr/lang.toml was not changed`,
    );
  if (r.activeLanguages.length > 0) lines.push(`  active for ${r.activeLanguages.join(', ')}`);
  if (r.sbom)
    lines.push(
      `  sbom       ${r.sbom.sha256} (${r.sbom.components} package${r.sbom.components === 1 ? '' : 's'}; \`travsr lang info ${r.id}\`)`,
    );
  if (r.granted) lines.push(`  ${r.granted}`);
  for (const w of r.warnings) lines.push(`  warning: ${w}`);
  if (r.otherLanguages.length > 0)
    lines.push(`  also claims ${r.otherLanguages.join(', ')} (served by another plugin; \`travsr lang install <lang>\` switches)`);
  if (lockPath !== undefined) {
    const before = r.lockBefore;
    const after = r.lockAfter;
    if (!before) lines.push(`  locked in ${lockPath}: ${after?.version} (${after?.constraint})`);
    else if (after && (before.version !== after.version || before.constraint !== after.constraint))
      lines.push(`  lock ${lockPath}: ${before.version} (${before.constraint}) → ${after.version} (${after.constraint})`);
  } else lines.push('  not in a repository: no plugins.lock was written (use --repo DIR)');
  return lines;
}
