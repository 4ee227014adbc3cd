import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TravsrError } from '@travsr/protocol';
import { loadConfig, type ConfigKey, type LoadedConfig } from '../config/index.js';
import type { IndexSettings } from '../indexer/indexer.js';
import { findRepoRoot } from '../git/index.js';
import { stderrLogger, type Logger } from '../log/logger.js';
import { repoTravsrDir } from '../paths/travsr-home.js';
import { syncConfigSynonyms } from '../synonyms/config-synonyms.js';
import { GraphStore } from '../store/index.js';
import { deriveCorpus } from './corpus.js';
import { initializedGitRoot } from './initialized-root.js';

/** Error about the repository a command works on. */
export class WorkspaceError extends TravsrError {
  override readonly name = 'WorkspaceError';
  constructor(
    readonly code: 'NOT_INITIALIZED' | 'NOT_A_DIRECTORY',
    message: string,
  ) {
    super(message);
  }
}

/** A repository a command works on: its root, configuration, graph store and settings. */
export interface Workspace {
  root: string;
  /** True when the root is a git work tree. */
  git: boolean;
  config: LoadedConfig;
  store: GraphStore;
  settings: IndexSettings;
  logger: Logger;
  close(): void;
}

/**
 * Opens the repository that holds `dir` (its git top level, or `dir` itself outside git):
 * loads the layered configuration and the graph store.
 * @param create make `.travsr/` when missing (init); otherwise a missing one is NOT_INITIALIZED.
 */
export async function openWorkspace(
  dir: string,
  opts: { create?: boolean; flags?: Partial<Record<ConfigKey, unknown>>; readonly?: boolean } = {},
): Promise<Workspace> {
  const abs = resolve(dir);
  if (!existsSync(abs)) throw new WorkspaceError('NOT_A_DIRECTORY', `${abs} does not exist`);
  // An initialized repository is found without git; `init` (and anything unusual) asks git.
  const gitRoot = (opts.create ? undefined : initializedGitRoot(abs)) ?? (await findRepoRoot(abs));
  const root = gitRoot ?? abs;
  const travsrDir = repoTravsrDir(root);
  if (!existsSync(travsrDir)) {
    if (!opts.create)
      throw new WorkspaceError(
        'NOT_INITIALIZED',
        `${root} has no Travsr index yet; run \`travsr init ${root === process.cwd() ? '.' : root}\` first`,
      );
    mkdirSync(travsrDir, { recursive: true });
  }
  const config = loadConfig({ repoRoot: root, ...(opts.flags ? { flags: opts.flags } : {}) });
  // Without a configured corpus, git is asked for the remote while the store opens.
  const derivedCorpus = config.values.corpus.value ? undefined : deriveCorpus(root);
  const logger = stderrLogger(config.values['log.level'].value);
  // Said on every command that opens the repository, so nobody wonders why a setting has no effect.
  for (const ignored of config.ignored) logger.log('warn', ignored.message);
  const store = GraphStore.open(join(travsrDir, 'graph.db'), opts.readonly ? { readonly: true } : {});
  // The setting's synonyms follow the configuration at every command that writes.
  if (!opts.readonly) {
    const problem = syncConfigSynonyms(store, config);
    if (problem) logger.log('warn', problem);
  }
  const corpus = derivedCorpus ? await derivedCorpus : config.values.corpus.value;
  return {
    root,
    git: gitRoot !== undefined,
    config,
    store,
    logger,
    settings: {
      corpus,
      workers: config.values['index.workers'].value,
      maxFileBytes: config.values['index.maxFileBytes'].value,
      exclude: [...config.values['index.exclude'].value],
      followSymlinks: config.values['index.followSymlinks'].value,
      semantic: config.values['index.semantic'].value,
      prefer: { ...config.values['plugins.prefer'].value },
      pluginOptions: { ...config.values['plugins.options'].value },
      pluginCacheMaxMiB: config.values['plugins.cacheMax'].value,
      pluginNetwork: { ...config.values['plugins.network'].value },
      broughtIndexers: {
        commands: { ...config.values['lang.scipCommand'].value },
        tiers: { ...config.values['lang.scipTier'].value },
        networks: { ...config.values['lang.scipNetwork'].value },
      },
    },
    close: () => store.close(),
  };
}
