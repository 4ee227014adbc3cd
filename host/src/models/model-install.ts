import type { RegistryClient } from '@travsr/registry';
import {
  installFromRegistry,
  installLocal,
  isLocalTarget,
  splitRange,
  withRegistry,
  type InstallOutcome,
  type LangContext,
} from '../catalog/install-plugin.js';
import { readLangToml, writeLangToml } from '../catalog/lang-toml.js';
import { loadPluginDir } from '../plugins/plugin-dir.js';
import type { ModelTask } from './model-catalog.js';
import { ModelChannelError } from './model-errors.js';

/** What installing a model did: the install (registry, lock) and the task it now serves. */
export interface ModelInstall {
  install: InstallOutcome;
  task: ModelTask;
}

/**
 * Installs a model plugin like any plugin — from the registry (`id[@range]`, checked against
 * its signature, pinned in the repository's `.travsr/plugins.lock`), a plugin directory or a
 * `.tgz` — and registers it for its task. `task`: the task it must serve (`rerank install`);
 * without `target`, the registry's only model of that task.
 *
 * @throws ModelChannelError MODEL_DIR_INVALID (not a model, or a model of another task), MODEL_NOT_REGISTERED (no model of the task to choose)
 */
export async function installModel(ctx: LangContext, target: string | undefined, task?: ModelTask): Promise<ModelInstall> {
  // What was registered before: put back when the plugin turns out not to be the model asked for.
  const before = readLangToml();
  let install: InstallOutcome | undefined;
  if (target !== undefined && isLocalTarget(target)) install = await installLocal(ctx, target);
  else
    await withRegistry(ctx, async (source, client) => {
      const { name, range } = target !== undefined ? splitRange(target) : { name: await onlyModelOf(client, task), range: undefined };
      install = await installFromRegistry(ctx, source, client, name, range, 'install');
    });
  const done = install!;
  const { manifest } = await loadPluginDir(done.dir);
  const refuse = (why: string): never => {
    writeLangToml(before);
    throw new ModelChannelError(
      'MODEL_DIR_INVALID',
      `${manifest.id}@${manifest.version} ${why}; its files are installed but nothing was registered`,
    );
  };
  if (manifest.kind !== 'model' || !manifest.model) refuse('is an analyzer plugin, not a model (install it with travsr lang install)');
  if (task && manifest.model!.task !== task)
    refuse(
      `is ${manifest.model!.task === 'embed' ? 'an embedding' : 'a rerank'} model, not ${task === 'embed' ? 'an embedding' : 'a rerank'} model (install it with travsr model install)`,
    );
  if (readLangToml().models?.[manifest.model!.task] !== manifest.id)
    throw new ModelChannelError(
      'MODEL_DIR_INVALID',
      `${manifest.id}@${manifest.version} was installed for this repository only (a registry its own config names); register it with travsr model add ${done.dir}`,
    );
  return { install: done, task: manifest.model!.task };
}

/** The id of the registry's only model plugin serving `task` (newest versions' manifests). */
async function onlyModelOf(client: RegistryClient, task: ModelTask | undefined): Promise<string> {
  const { index } = await client.snapshot();
  const found: string[] = [];
  for (const [id, entry] of Object.entries(index.plugins).sort(([a], [b]) => a.localeCompare(b))) {
    if (entry.languages.length > 0) continue;
    const { manifest } = await client.versionDocument(id, entry.latest);
    if (manifest.kind === 'model' && (!task || manifest.model?.task === task)) found.push(id);
  }
  const what = task ? `${task} model` : 'model';
  if (found.length === 1) return found[0]!;
  throw new ModelChannelError(
    'MODEL_NOT_REGISTERED',
    found.length === 0
      ? `the registry offers no ${what}; publish one (travsr plugin pack, then travsr registry publish) or register a local one with travsr model add <dir>`
      : `the registry offers several ${what}s (${found.join(', ')}): name one`,
  );
}
