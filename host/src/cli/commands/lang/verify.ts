import { TravsrCommand } from '../../base-command.js';
import { LangErrorCode } from '../../../catalog/errors.js';
import { langContext, verifyInstalled } from '../../../catalog/install-plugin.js';
import { readPluginsLock } from '../../../catalog/plugins-lock.js';
import { jsonFlag, repoFlag, ignoredKeyWarnings } from '../../shared/lang-flags.js';

export default class LangVerify extends TravsrCommand {
  static override summary = 'Re-hash every installed plugin, and the SBOM kept with it, against the hashes recorded at install';
  static override description =
    'Checks the plugins ~/.travsr/lang.toml registers, and the versions this repository’s .travsr/plugins.lock runs instead: their files against the tree hash recorded at install, and the SBOM installed with each against its SHA-256 (which the lock pins too). Exits 1 and names every plugin whose files or SBOM changed since it was installed; Travsr also refuses to launch a plugin whose files changed. Reinstall it with `travsr lang install <id>`.';
  static override examples = ['<%= config.bin %> lang verify'];
  static override flags = { repo: repoFlag, json: jsonFlag };

  async run(): Promise<void> {
    const { flags } = await this.parse(LangVerify);
    const ctx = await langContext(flags.repo, false);
    for (const line of ignoredKeyWarnings(ctx)) this.logToStderr(line);
    const results = await verifyInstalled(ctx.lockPath ? readPluginsLock(ctx.lockPath) : {});
    const changed = results.filter((r) => !r.ok);
    if (flags.json) this.log(JSON.stringify({ ok: changed.length === 0, plugins: results }, null, 2));
    else {
      for (const r of results)
        this.log(`${r.ok ? 'ok          ' : r.failed === 'sbom' ? 'SBOM CHANGED' : 'CHANGED     '}  ${r.id}@${r.version}  ${r.dir}`);
      if (results.length === 0) this.log('no installed plugins');
    }
    if (changed.length > 0) {
      const files = changed.filter((r) => r.failed !== 'sbom');
      const what = [
        files.length > 0 ? `files of ${files.map((r) => `${r.id}@${r.version}`).join(', ')} (Travsr will not launch them)` : '',
        changed.length > files.length
          ? `the SBOM of ${changed
              .filter((r) => r.failed === 'sbom')
              .map((r) => `${r.id}@${r.version}`)
              .join(', ')}`
          : '',
      ].filter((x) => x !== '');
      this.logToStderr(
        `Error [${LangErrorCode.Modified}]: ${changed.length} plugin(s) changed since install: ${what.join('; ')} — reinstall with \`travsr lang install <id>\``,
      );
      for (const r of changed) this.logToStderr(`  ${r.id}: ${r.problem ?? ''}`);
      this.exit(1);
    }
  }
}
