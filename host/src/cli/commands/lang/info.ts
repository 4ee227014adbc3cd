import { Args } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import { langContext } from '../../../catalog/install-plugin.js';
import { pluginInfo, type PluginInfo } from '../../../catalog/plugin-info.js';
import { ignoredKeyWarnings, jsonFlag, repoFlag } from '../../shared/lang-flags.js';

export default class LangInfo extends TravsrCommand {
  static override summary = 'Show a plugin: manifest, sandbox tier, constraints, SBOM, signer and where it was installed from';
  static override description =
    'Without a version, shows the version this repository runs (its .travsr/plugins.lock, else ~/.travsr/lang.toml); a version or range that is not installed is looked up in the registry (`registry.url`) and nothing is installed. The SBOM kept at install is checked against the hash recorded then; one from the registry against its signed version document. --json gives the full documents: manifest, registration, lock entry, install record, signed version document and the CycloneDX SBOM.';
  static override examples = [
    '<%= config.bin %> lang info lang-typescript',
    '<%= config.bin %> lang info go',
    '<%= config.bin %> lang info lang-go@0.1.0 --json',
  ];
  static override args = {
    plugin: Args.string({ required: true, description: 'plugin id or language, optionally @version or @range' }),
  };
  static override flags = { repo: repoFlag, json: jsonFlag };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(LangInfo);
    const ctx = await langContext(flags.repo, false);
    for (const line of ignoredKeyWarnings(ctx)) this.logToStderr(line);
    const info = await pluginInfo(ctx, args.plugin);
    if (flags.json) {
      this.log(JSON.stringify(info, null, 2));
      return;
    }
    for (const line of describeInfo(info)) this.log(line);
  }
}

function constraintsText(m: PluginInfo['manifest']): string {
  const c = m.constraints;
  const parts = [
    c.network === false ? 'no network' : `network to ${c.network.allow.join(', ')}`,
    c.ipc === 'none' ? 'no shared memory' : `ipc ${c.ipc}`,
    c.hostApi ? 'host API' : 'no host API',
  ];
  if (c.filesystem) parts.push(`filesystem ${c.filesystem}`);
  if (c.cache) parts.push('a cache directory');
  if (c.resources)
    parts.push(
      Object.entries(c.resources)
        .map(([k, v]) => `${k} ${String(v)}`)
        .join(', '),
    );
  if (c.tools?.length) parts.push(`tools ${c.tools.join(', ')}`);
  if (c.optionalTools?.length) parts.push(`optional tools ${c.optionalTools.join(', ')}`);
  return parts.join('; ');
}

/** Human lines for `lang info`. */
export function describeInfo(i: PluginInfo): string[] {
  const from =
    i.source === 'builtin' ? 'the built-in registry' : i.source === 'checkout' ? 'this checkout (registered where it is built)' : i.source;
  const lines = [`${i.id} ${i.version} — ${i.state === 'installed' ? 'installed' : `not installed (in ${from})`}`];
  if (i.manifest.description) lines.push(`  ${i.manifest.description}`);
  const row = (label: string, value: string | undefined): void => {
    if (value !== undefined) lines.push(`  ${label.padEnd(12)} ${value}`);
  };
  row('languages', i.manifest.languages.join(', '));
  row('extensions', i.manifest.extensions.join(' '));
  row('entrypoint', `${i.manifest.entrypoint.runtime} ${i.manifest.entrypoint.path}`);
  row('protocol', i.manifest.protocolVersions.join(', '));
  row('tier', i.grantedTier ? `${i.grantedTier} (its constraints need ${i.requiredTier})` : `needs ${i.requiredTier}`);
  row('constraints', constraintsText(i.manifest));
  row('dir', i.dir);
  if (i.state === 'installed') row('from', from);
  row('signed by', i.signedBy ? `${i.signedBy}${i.signed ? ` at ${i.signed}` : ''}` : undefined);
  row('installed', i.installedAt);
  row('sha256', i.sha256);
  row('tree hash', i.treeHash);
  if (i.lock) row('locked', `${i.lock.version} (${i.lock.constraint})`);
  if (i.sbom) {
    const s = i.sbom.summary;
    const checked =
      i.sbom.from === 'build record'
        ? 'made from the build record'
        : i.sbom.from === 'registry'
          ? 'checked against the signed version document'
          : 'checked against the hash recorded at install';
    row(
      'sbom',
      `CycloneDX ${s.specVersion}, ${s.aggregate}, ${s.packages.length} package${s.packages.length === 1 ? '' : 's'}, ${s.files} shipped file${s.files === 1 ? '' : 's'}${s.tool ? ` (${s.tool})` : ''}; ${checked}`,
    );
    row('sbom sha256', i.sbom.sha256);
    const width = Math.max(0, ...s.packages.map((p) => `${p.name} ${p.version}`.length));
    for (const p of s.packages) lines.push(`    ${`${p.name} ${p.version}`.padEnd(width)}  ${p.licence ?? 'no licence declared'}`);
  } else row('sbom', `none: ${i.sbomProblem ?? 'unknown'}`);
  if (i.sbom && i.sbomProblem) row('sbom', i.sbomProblem);
  row('licences', i.licenceProblem ?? 'allowed by registry.allowedLicences');
  return lines;
}
