import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Args, Flags } from '@oclif/core';
import { TravsrCommand } from '../base-command.js';
import { gitPath, installPostCommitHook } from '../../git/index.js';
import { formatSummary } from '../../indexer/index-summary.js';
import { loadConfig } from '../../config/index.js';
import { registeredPlugins, registerPlugins } from '../../catalog/registered-plugins.js';
import { firstPartyPlugins, installFirstParty, type FirstPartyPlugins } from '../../catalog/first-party-plugins.js';
import { LanguageMap, walkRepository, type WalkEntry } from '../../indexer/walk/index.js';
import { loadPluginDir } from '../../plugins/plugin-dir.js';
import { indexWorkspace } from '../../workspace/index-workspace.js';
import { openWorkspace } from '../../workspace/workspace.js';
import { hostPackagePath } from '../../paths/host-package.js';
import { connectRunningDaemon } from '../../daemon/daemon-connect.js';

export default class Init extends TravsrCommand {
  static override summary = 'Set up Travsr in a repository: register plugins, install the git hook, index';
  static override description =
    "Creates .travsr/ (kept out of git), registers the first-party plugins for the languages found in the tree (in ~/.travsr/lang.toml, at your own sandbox.tier; an installed package installs them from its built-in registry and locks them in .travsr/plugins.lock), installs a post-commit hook that reindexes incrementally, and runs a full index. Security keys of the repository's own .travsr/config.toml (plugins.dirs, sandbox.tier, registry.*) count only after `travsr trust`.";
  static override examples = ['<%= config.bin %> init', '<%= config.bin %> init ../my-repo --json'];
  static override args = { path: Args.directory({ description: 'repository to set up', default: '.', exists: true }) };
  static override flags = {
    hook: Flags.boolean({ default: true, allowNo: true, description: 'install the post-commit hook (--no-hook to skip)' }),
    json: Flags.boolean({ default: false, description: 'print the summary as JSON' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Init);
    const ws = await openWorkspace(args.path, { create: true });
    try {
      const steps: string[] = [];
      if (ws.git) {
        const exclude = await gitPath(ws.root, 'info/exclude');
        const current = existsSync(exclude) ? readFileSync(exclude, 'utf8') : '';
        if (!/^\/?\.travsr\/?$/m.test(current)) {
          mkdirSync(dirname(exclude), { recursive: true });
          appendFileSync(exclude, `${current && !current.endsWith('\n') ? '\n' : ''}/.travsr/\n`);
          steps.push('kept .travsr/ out of git (.git/info/exclude)');
        }
      }

      // Which languages are here, by every plugin this installation has? First-party plugins are
      // the checkout's plugin directories, or in an installed package its built-in registry's.
      const firstParty: FirstPartyPlugins = await firstPartyPlugins(ws.logger).catch((e: unknown) => {
        ws.logger.log('warn', (e as Error).message);
        return { from: 'checkout', plugins: [] };
      });
      const builtin = firstParty.from === 'checkout' ? [...firstParty.plugins] : [];
      const available = [...builtin];
      for (const dir of ws.config.values['plugins.dirs'].value) {
        try {
          available.push(await loadPluginDir(dir));
        } catch (e) {
          ws.logger.log('warn', (e as Error).message);
        }
      }
      // Plugins registered already (from a registry, say) claim files too: the walk below is the
      // index's, so it inspects every file that any of them might claim.
      const { plugins: registered } = await registeredPlugins(ws.config.values['plugins.dirs'].value, { repoRoot: ws.root });
      const known = new Set(available.map((p) => p.manifest.id));
      const claimants = [...available, ...registered.map((r) => r.plugin).filter((p) => !known.has(p.manifest.id))].map((p) => p.manifest);
      const offered =
        firstParty.from === 'builtin-registry' ? firstParty.manifests.filter((m) => !claimants.some((c) => c.id === m.id)) : [];
      const map = LanguageMap.fromPlugins(
        [...claimants, ...offered].map((manifest) => ({ id: manifest.id, manifest })),
        { prefer: ws.settings.prefer },
      );
      // One walk: it finds the languages here, and the index below takes what it found.
      const languages = new Set<string>();
      const matched = new Set<string>();
      const entries: WalkEntry[] = [];
      for await (const entry of walkRepository(ws.root, {
        maxFileBytes: ws.settings.maxFileBytes,
        exclude: ws.settings.exclude,
        followSymlinks: ws.settings.followSymlinks,
        languageMap: map,
        reportUnclaimed: true,
      })) {
        entries.push(entry);
        if (entry.kind === 'file' && entry.match) {
          languages.add(entry.match.language);
          matched.add(entry.match.plugin);
        }
      }
      // First-party plugins are registered in lang.toml; plugins from `plugins.dirs` stay development plugins.
      // lang.toml is the user's, shared by every repository: its grants follow the user's own
      // sandbox.tier, never the repository's (a trusted repository's tier applies to its own runs).
      const added = await registerPlugins(builtin, languages, loadConfig({}).values['sandbox.tier'].value);
      for (const a of added) steps.push(`registered ${a.plugin} for ${a.language}`);
      // An installed package's first-party plugins: installed from its built-in registry and locked,
      // those that serve what is here (a plugin registered already is locked at its version).
      if (firstParty.from === 'builtin-registry') {
        for (const problem of firstParty.problems) steps.push(problem);
        // What no plugin here served yet, and what is registered at the very version the registry
        // has (installed from it before: locked for this repository too). A plugin of the user's
        // own (plugins.dirs, another registry, another version) is left as it is.
        const registeredVersion = new Map(claimants.map((m) => [m.id, m.version]));
        const ids = firstParty.manifests
          .filter((m) => matched.has(m.id) && (offered.includes(m) || registeredVersion.get(m.id) === m.version))
          .filter((m) => !available.some((p) => p.manifest.id === m.id))
          .map((m) => m.id);
        const installed = await installFirstParty(ws.root, ids, (id, e) => {
          ws.logger.log('warn', `${id} was not installed from the built-in registry: ${e.message}`);
          steps.push(`${id} was not installed: ${e.message}`);
        });
        for (const r of installed)
          steps.push(
            `${r.alreadyInstalled ? 'locked' : 'installed'} ${r.id} ${r.version} from the built-in registry${r.activeLanguages.length > 0 ? ` for ${r.activeLanguages.join(', ')}` : ''}`,
          );
      }
      if (languages.size === 0) steps.push('no language with an available plugin was found');

      if (ws.git && flags.hook && ws.config.values['hook.enabled'].value) {
        const bin = hostPackagePath('bin', 'run.js');
        const hook = await installPostCommitHook(ws.root, { command: [process.execPath, bin, 'hook-run', '--from-hook'] });
        steps.push(`post-commit hook ${hook.action} (${hook.path})`);
      }

      const summary = await indexWorkspace(ws, { kind: 'full' }, { progress: !flags.json, extra: { listing: { entries, map } } });
      // The daemon manages every initialized repository: from its next start, and now when it runs.
      const { rememberRepo } = await import('../../workspace/known-repos.js');
      rememberRepo(ws.root);
      const daemon = await connectRunningDaemon().catch((e: unknown) => {
        ws.logger.log('warn', `the daemon was not told about ${ws.root}: ${(e as Error).message}`);
        return undefined;
      });
      if (daemon) {
        try {
          const added = await daemon.addRepo(ws.root);
          if (added.changed) steps.push(`the running daemon (pid ${daemon.hello.pid}) follows it now`);
        } finally {
          daemon.close();
        }
      }
      if (flags.json) {
        this.log(JSON.stringify({ root: ws.root, corpus: ws.settings.corpus, languages: [...languages].sort(), steps, summary }, null, 2));
        return;
      }
      this.log(`travsr initialized in ${join(ws.root, '.travsr')} (corpus ${ws.settings.corpus})`);
      for (const s of steps) this.log(`  ${s}`);
      this.log(formatSummary(summary));
    } finally {
      ws.close();
    }
  }
}
