import type { PluginManifest } from '@travsr/protocol';
import type { Logger } from '../log/logger.js';
import { PluginSupervisor } from '../plugins/supervisor.js';
import type { PluginTimeouts } from '../plugins/timeouts.js';
import type { Trace } from '../traces/trace.js';
import { persistentTraceSink } from '../traces/trace-sink.js';
import type { RegisteredPlugin } from '../catalog/registered-plugins.js';
import type { LoadedPlugin } from '../plugins/plugin-dir.js';
import { pluginOptionsFor } from './plugin-options.js';
import { broughtIndexersFor, type BroughtIndexerSettings } from './brought-indexers.js';
import type { SpareSessions } from './spare-sessions.js';

/**
 * A plugin with at most this many files to analyze in a run starts a brief session
 * (`LaunchSpec.brief`): the commit of a developer at work, a small repository, the few YAML
 * files of a large one. On the 2-core box a full index of an 11-file, 9-language repository took
 * 10.3 CPU-seconds with the optimizing WebAssembly tier and 4.7 without it.
 */
export const BRIEF_RUN_FILES = 32;

/** A plugin's supervisor and the answer of its session's start (what `capabilities()` resolves to). */
export interface StartedPlugin {
  readonly supervisor: PluginSupervisor;
  readonly capabilities: ReturnType<PluginSupervisor['capabilities']>;
}

/** What {@link PluginSessions} needs to start a plugin for one index run. */
export interface PluginSessionSettings {
  repoRoot: string;
  corpus: string;
  plugins: readonly RegisteredPlugin[];
  /** Run Phase B; false: Phase A only. */
  semantic: boolean;
  pluginOptions?: Record<string, string> | undefined;
  pluginCacheMaxMiB?: number | undefined;
  /** `lang.scip*`: the SCIP indexers users bring, by language. */
  broughtIndexers?: BroughtIndexerSettings | undefined;
  /** `plugins.network`: plugin id → the hosts it may reach instead of its manifest's. */
  pluginNetwork?: Record<string, string> | undefined;
  logger: Logger;
  onTrace?: ((t: Trace) => void) | undefined;
  timeouts?: Partial<PluginTimeouts> | undefined;
  /** Sessions {@link PluginSessions.warm} may have started at once (`index.workers`). */
  workers: number;
  /** Sessions started ahead for brief runs (the daemon's): taken instead of starting one, and replaced at the end. */
  spares?: SpareSessions | undefined;
}

/**
 * The plugin sessions of one index run, each started the first time the run knows the plugin
 * has work — usually while the walk, the hashing and the store's reads are still going — so
 * that the sandbox, the plugin's own start-up and the handshake overlap them instead of
 * following them. A start that fails is reported where its capabilities are awaited.
 */
export class PluginSessions {
  private readonly started = new Map<string, StartedPlugin>();
  private readonly stopping = new Map<string, Promise<void>>();
  /** {@link stopAll} has begun: nothing starts any more. */
  private ended = false;
  /**
   * The run analyzes a few files (an incremental run after a small commit): every session it
   * starts is brief (`LaunchSpec.brief`), and its sessions may serve the next such run. Set it
   * before the first start. Otherwise a session is brief when its plugin's work is small
   * ({@link warm}, {@link planned}).
   */
  brief = false;
  /** The files each plugin is known to analyze in this run (all of them once {@link planned}). */
  private readonly work = new Map<string, Set<string>>();
  /** The exact number of files each plugin analyzes, once the run has planned its work. */
  private readonly plannedFiles = new Map<string, number>();
  /** Paths this run changes or deletes: what a session kept from an earlier run is told ({@link SpareSessions.keep}). */
  changedPaths: readonly string[] = [];

  /** A file each plugin analyzed in this run: what a spare session's first request reads. */
  private readonly samples = new Map<string, { path: string; language: string }>();

  constructor(private readonly settings: PluginSessionSettings) {}

  /** Notes a file the plugin analyzes in this run (the last one noted warms its spare session). */
  noteFile(pluginId: string, file: { path: string; language: string }): void {
    this.samples.set(pluginId, { path: file.path, language: file.language });
  }

  /**
   * Notes that the plugin analyzes `path` in this run and starts it ahead of its work, unless
   * `workers` sessions are started already (the others start when their turn comes). In a brief
   * run it starts at once; otherwise once it has more than {@link BRIEF_RUN_FILES} files to
   * analyze, the work that pays for a full session. A plugin with fewer starts when its work is
   * handed out, as a brief session: the optimizing compiler's work would not pay off.
   */
  warm(pluginId: string, path: string): void {
    if (!this.brief) {
      const files = this.work.get(pluginId) ?? new Set<string>();
      // Past the brief limit only "more than that" matters: a large run keeps no set of all its paths.
      if (files.size <= BRIEF_RUN_FILES) files.add(path);
      this.work.set(pluginId, files);
      if (files.size <= BRIEF_RUN_FILES) return;
    }
    if (this.started.has(pluginId) || this.started.size >= Math.max(1, this.settings.workers)) return;
    this.start(pluginId);
  }

  /** The run's plan: how many files each plugin analyzes. A session not started yet is brief when they are few. */
  planned(files: ReadonlyMap<string, number>): void {
    for (const [pluginId, n] of files) this.plannedFiles.set(pluginId, n);
  }

  /** True when the plugin's session in this run is to be brief. */
  private isBrief(pluginId: string): boolean {
    return this.brief || (this.plannedFiles.get(pluginId) ?? this.work.get(pluginId)?.size ?? 0) <= BRIEF_RUN_FILES;
  }

  /**
   * Starts the plugin (once); undefined for a plugin this run does not have, or once the run
   * is stopping its sessions (a session started then would outlive the run: nobody would stop
   * its process).
   */
  start(pluginId: string): StartedPlugin | undefined {
    const known = this.started.get(pluginId);
    if (known) return known;
    if (this.ended) {
      this.settings.logger.log('debug', `${pluginId}: not started, the index run has ended`);
      return undefined;
    }
    const reg = this.settings.plugins.find((p) => p.plugin.manifest.id === pluginId);
    if (!reg) return undefined;
    const { key, make } = this.supervisorFor(reg, this.isBrief(pluginId));
    const spare = this.brief ? this.settings.spares?.take(pluginId, key) : undefined;
    spare?.beginRun(this.changedPaths);
    const supervisor = spare ?? make();
    const capabilities = supervisor.capabilities();
    capabilities.catch(() => undefined);
    const started = { supervisor, capabilities };
    this.started.set(pluginId, started);
    return started;
  }

  /** The tier `reg` runs in this run: its own, raised by the indexers brought for its languages. */
  tierFor(reg: RegisteredPlugin): RegisteredPlugin['tier'] {
    return broughtIndexersFor(reg.plugin.manifest, this.settings.broughtIndexers, { tier: reg.tier }, '')?.tier ?? reg.tier;
  }

  /** The phases `reg` runs in this run ({@link runPhases}, with the indexers brought for its languages). */
  phasesFor(reg: RegisteredPlugin): ('A' | 'B')[] {
    const brought = this.settings.broughtIndexers;
    return runPhases(
      reg.plugin.manifest,
      this.settings.semantic,
      reg.plugin.manifest.languages.some((l) => brought?.commands[l] !== undefined),
    );
  }

  /**
   * How this run starts `reg`'s supervisor, and the key of those settings (a spare session
   * started with other settings is not used).
   */
  private supervisorFor(reg: RegisteredPlugin, brief: boolean): { key: string; make: () => PluginSupervisor } {
    const s = this.settings;
    const pluginId = reg.plugin.manifest.id;
    const own = pluginOptionsFor(pluginId, s.pluginOptions);
    // Indexers brought for its languages: its Phase B for them, in the tier they ask for.
    const brought = broughtIndexersFor(reg.plugin.manifest, s.broughtIndexers, { tier: reg.tier });
    const options = brought ? { ...own, scip: brought.entries } : own;
    const phases = runPhases(reg.plugin.manifest, s.semantic, brought !== undefined);
    const tier = brought?.tier ?? reg.tier;
    // The hosts the brought indexers may reach join the session's allowlist (the proxy lets
    // through exactly the manifest's): the user's configuration asked for them.
    const hosts = brought?.hosts ?? [];
    const plugin = withNetworkHosts(withNetworkOverride(reg.plugin, s.pluginNetwork?.[pluginId]), hosts);
    const networkAllow = reg.networkAllow.length > 0 ? [...new Set([...reg.networkAllow, ...hosts])] : [];
    const key = JSON.stringify([
      reg.plugin.dir,
      reg.plugin.label,
      plugin.manifest.constraints.network,
      reg.treeHash ?? '',
      tier,
      reg.allowUnsandboxed,
      networkAllow,
      brought?.tools ?? [],
      s.repoRoot,
      s.corpus,
      options ?? {},
      s.pluginCacheMaxMiB ?? null,
      phases,
      s.timeouts ?? {},
      brief,
    ]);
    const make = () =>
      new PluginSupervisor({
        plugin,
        repoRoot: s.repoRoot,
        corpus: s.corpus,
        ...(options ? { pluginOptions: options } : {}),
        ...(s.pluginCacheMaxMiB !== undefined ? { cacheMaxMiB: s.pluginCacheMaxMiB } : {}),
        grant: { tier, allowUnsandboxed: reg.allowUnsandboxed, ...(networkAllow.length > 0 ? { networkAllow } : {}) },
        ...(brought && brought.tools.length > 0 ? { extraTools: brought.tools } : {}),
        ...(reg.treeHash ? { expectedTreeHash: reg.treeHash } : {}),
        logger: s.logger,
        onTrace: s.onTrace ?? persistentTraceSink(s.repoRoot, s.logger),
        phases,
        ...(s.timeouts ? { timeouts: s.timeouts } : {}),
        ...(brief ? { brief: true } : {}),
      });
    return { key, make };
  }

  /**
   * Resolves once every session started so far has its process running or has failed to
   * start: an incremental run waits for it before walking, so that the launch — the sandbox,
   * then the plugin's own start-up on the other core — is not held back by the host's work.
   */
  async launched(): Promise<void> {
    await Promise.all([...this.started.values()].map((s) => s.supervisor.launched()));
  }

  /**
   * Starts stopping a plugin's session and returns at once: the plugin's exit (and its cache
   * check and trace) overlaps what the run does next. {@link stopAll} waits for it.
   */
  release(pluginId: string): void {
    const s = this.started.get(pluginId);
    if (s && this.keeps(s)) return; // kept for the next run by stopAll
    this.stop(pluginId);
  }

  /** Starts stopping a plugin's session (once). */
  private stop(pluginId: string): void {
    const s = this.started.get(pluginId);
    if (s && !this.stopping.has(pluginId))
      this.stopping.set(
        pluginId,
        s.supervisor.stop().catch(() => undefined),
      );
  }

  /** True when this brief run's session of a plugin is to serve the next run (its plugin is incremental and healthy). */
  private keeps(s: StartedPlugin): boolean {
    return this.brief && this.settings.spares !== undefined && s.supervisor.incremental && s.supervisor.state === 'ready';
  }

  /**
   * Stops every session started (those whose files turned out unchanged too) and waits until
   * each has ended. After a brief run with spares, a fresh session of each plugin it started is
   * launched for the next run.
   */
  async stopAll(): Promise<void> {
    this.ended = true;
    const spares = this.settings.spares;
    // An incremental plugin's session of a brief run serves the next run too.
    const kept = new Set<string>();
    for (const [id, s] of this.started)
      if (spares && this.keeps(s) && !this.stopping.has(id)) {
        const reg = this.settings.plugins.find((p) => p.plugin.manifest.id === id);
        if (reg && spares.keep(id, this.supervisorFor(reg, true).key, s.supervisor)) kept.add(id);
      }
    for (const id of this.started.keys()) if (!kept.has(id)) this.stop(id);
    // The next brief run (an edit) finds these plugins started, whatever this run was.
    if (spares)
      for (const id of this.started.keys()) {
        if (kept.has(id)) continue;
        const reg = this.settings.plugins.find((p) => p.plugin.manifest.id === id);
        if (!reg) continue;
        const { key, make } = this.supervisorFor(reg, true);
        const sample = this.samples.get(id);
        spares.prepare(
          id,
          key,
          make,
          sample ? (sup) => sup.analyze({ phase: 'A', files: [sample] }, { onFile: () => undefined }) : undefined,
        );
      }
    await Promise.all(this.stopping.values());
  }
}

/**
 * The plugin with the hosts of `plugins.network` (space-separated) in place of its manifest's
 * allowlist, for a plugin whose manifest asks for network at all; else the plugin as it is.
 */
export function withNetworkOverride(plugin: LoadedPlugin, hosts: string | undefined): LoadedPlugin {
  const allow = (hosts ?? '').split(/\s+/).filter((h) => h !== '');
  if (allow.length === 0 || plugin.manifest.constraints.network === false) return plugin;
  return { ...plugin, manifest: { ...plugin.manifest, constraints: { ...plugin.manifest.constraints, network: { allow } } } };
}

/** The plugin with `hosts` added to its manifest's allowlist (a manifest without network gets them alone). */
export function withNetworkHosts(plugin: LoadedPlugin, hosts: readonly string[]): LoadedPlugin {
  if (hosts.length === 0) return plugin;
  const net = plugin.manifest.constraints.network;
  const allow = [...new Set([...(net === false ? [] : net.allow), ...hosts])];
  return { ...plugin, manifest: { ...plugin.manifest, constraints: { ...plugin.manifest.constraints, network: { allow } } } };
}

/**
 * The phases a plugin runs in an index run: its manifest's — with B when a user brought a SCIP
 * indexer for one of its languages (`brought`) — without B when `semantic` is off.
 */
export function runPhases(manifest: PluginManifest, semantic: boolean, brought = false): ('A' | 'B')[] {
  const phases = manifest.phases ?? ['A'];
  const all = brought && !phases.includes('B') ? [...phases, 'B' as const] : phases;
  return all.filter((p): p is 'A' | 'B' => p === 'A' || (p === 'B' && semantic));
}
