import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { MANIFEST_FILE, type ModelInfo } from '@travsr/protocol';
import { assembleModelPlugin, MODEL_MANIFEST_FILE, readModelManifest } from '@travsr/sdk/model';
import { treeHash } from '@travsr/registry/tree-hash';
import { readLangToml, writeLangToml } from '../catalog/lang-toml.js';
import { checkoutPluginsRoot } from '../catalog/registered-plugins.js';
import { hostPackagePath } from '../paths/host-package.js';
import { travsrHome } from '../paths/travsr-home.js';
import { loadPluginDir, type LoadedPlugin } from '../plugins/plugin-dir.js';
import { ModelChannelError } from './model-errors.js';

/** A task of the semantic layer a model serves. */
export type ModelTask = ModelInfo['task'];

/** A registered model plugin, loaded: what starting its session needs. */
export interface RegisteredModel {
  plugin: LoadedPlugin;
  task: ModelTask;
  info: ModelInfo;
  /** The tree hash recorded at registration: the session refuses files that changed since (PLUGIN_TAMPERED). */
  treeHash?: string;
  /**
   * The name its vectors are stored under: `id@version+<12 hex of its tree hash>`, so vectors of
   * another model — or of other weights published under the same id and version — are never mixed in.
   */
  key: string;
}

/** One line of `travsr model list`. */
export interface ModelListing {
  task: ModelTask;
  id: string;
  version: string;
  dir: string;
  /** The model its task uses (get_context, travsr embed). */
  registered: boolean;
}

/** Where `travsr model add` puts the model plugins it makes from model directories. */
export function modelsHome(): string {
  return join(travsrHome(), 'models');
}

/**
 * The model runner of this installation (runner.mjs and ONNX Runtime's WebAssembly), which a
 * model directory needs to become a model plugin: `TRAVSR_MODEL_RUNNER` when set, else
 * `plugins/model-onnx/dist/runner` of a built checkout, else the installed package's
 * `model-runner/` (the release copies it there).
 */
export function modelRunnerDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const given = env.TRAVSR_MODEL_RUNNER;
  if (given) return resolve(given);
  const root = checkoutPluginsRoot();
  const candidates = [...(root ? [join(root, 'model-onnx', 'dist', 'runner')] : []), hostPackagePath('model-runner')];
  return candidates.find((dir) => existsSync(join(dir, 'runner.mjs')));
}

/**
 * Registers the model in `dir` for its task (replacing the model registered for it before):
 * a model plugin directory (travsr-plugin.json of kind `model`) as it is, or a model directory
 * (travsr-model.json, the ONNX file, the tokenizer) made into a model plugin under
 * {@link modelsHome} with this installation's runner. The plugin's tree hash is recorded: a file
 * changed afterwards makes its sessions refuse to start.
 *
 * @throws ModelChannelError MODEL_DIR_INVALID, MODEL_RUNNER_MISSING
 */
export async function addModel(dir: string, options: { runnerDir?: string } = {}): Promise<{ model: RegisteredModel; madeFrom?: string }> {
  const from = resolve(dir);
  let pluginDir = from;
  let madeFrom: string | undefined;
  if (!existsSync(join(from, MANIFEST_FILE))) {
    if (!existsSync(join(from, MODEL_MANIFEST_FILE)))
      throw new ModelChannelError(
        'MODEL_DIR_INVALID',
        `${from} holds neither ${MANIFEST_FILE} (a model plugin) nor ${MODEL_MANIFEST_FILE} (a model directory): give the directory of an ONNX model with its travsr-model.json`,
      );
    const runner = options.runnerDir ?? modelRunnerDir();
    if (!runner)
      throw new ModelChannelError(
        'MODEL_RUNNER_MISSING',
        "this installation has no model runner to serve a model directory with (neither a built plugins/model-onnx nor the package's model-runner/): install a packed model plugin (travsr model install), or set TRAVSR_MODEL_RUNNER to a built runner directory",
      );
    try {
      // Read (and every file hashed) once: the directory's name comes from it, and the plugin is made from it.
      const manifest = readModelManifest(from);
      const { id, version } = manifest;
      pluginDir = join(modelsHome(), `${id}-${version}`);
      // The manifest's id and version are checked patterns; the directory replaced must still be one of ours.
      if (dirname(pluginDir) !== modelsHome()) throw new Error(`${id}@${version} does not name a directory under ${modelsHome()}`);
      assembleModelPlugin(from, pluginDir, runner, manifest);
    } catch (e) {
      throw new ModelChannelError('MODEL_DIR_INVALID', `${from} cannot be served: ${(e as Error).message}`);
    }
    madeFrom = from;
  }
  let plugin: LoadedPlugin;
  try {
    plugin = await loadPluginDir(pluginDir);
  } catch (e) {
    throw new ModelChannelError('MODEL_DIR_INVALID', `${pluginDir} is not a usable plugin: ${(e as Error).message}`);
  }
  const m = plugin.manifest;
  if (m.kind !== 'model' || !m.model)
    throw new ModelChannelError(
      'MODEL_DIR_INVALID',
      `${pluginDir} holds ${m.id}, an analyzer plugin, not a model: register it with travsr lang`,
    );
  const hash = await treeHash(pluginDir);
  const reg = readLangToml();
  const previous = reg.plugins[m.id];
  if (previous && previous.dir !== pluginDir && reg.models?.[m.model.task] !== m.id && isLanguagePlugin(reg, m.id))
    throw new ModelChannelError(
      'MODEL_DIR_INVALID',
      `the plugin id ${m.id} is registered for a language already; a model needs an id of its own`,
    );
  reg.plugins[m.id] = { version: m.version, dir: pluginDir, treeHash: hash, tier: 'standard', networkAllow: [] };
  // The model registered before stays installed (`model list` shows it, `embed --model` takes it back, `model remove` removes it).
  (reg.models ??= {})[m.model.task] = m.id;
  writeLangToml(reg);
  return {
    model: { plugin, task: m.model.task, info: m.model, treeHash: hash, key: modelKey(m.id, m.version, hash) },
    ...(madeFrom ? { madeFrom } : {}),
  };
}

/**
 * Every model plugin of lang.toml: the registered one of each task first (`registered`), then the
 * others installed or added (by id).
 */
export function listModels(): ModelListing[] {
  const reg = readLangToml();
  const out: ModelListing[] = [];
  for (const [id, p] of Object.entries(reg.plugins).sort(([a], [b]) => a.localeCompare(b))) {
    const model = modelOfDir(p.dir);
    if (!model) continue;
    out.push({ task: model.task, id, version: p.version, dir: p.dir, registered: reg.models?.[model.task] === id });
  }
  return out.sort((a, b) => Number(b.registered) - Number(a.registered) || a.task.localeCompare(b.task));
}

/** What the plugin in `dir` serves, when its manifest says it is a model plugin. */
function modelOfDir(dir: string): ModelInfo | undefined {
  try {
    const m = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')) as { kind?: unknown; model?: ModelInfo };
    return m.kind === 'model' && m.model ? m.model : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The model registered for `task`, loaded, or undefined when none is.
 * @throws ModelChannelError MODEL_UNAVAILABLE when its directory is gone or no longer a model plugin
 */
export async function registeredModel(task: ModelTask): Promise<RegisteredModel | undefined> {
  const reg = readLangToml();
  const id = reg.models?.[task];
  return id && reg.plugins[id] ? loadModel(id, reg.plugins[id], task, 'MODEL_UNAVAILABLE') : undefined;
}

/**
 * The model plugin `id` of lang.toml, loaded and checked to serve `task`.
 * @throws ModelChannelError MODEL_UNAVAILABLE (its directory is gone or broken), `code` when it is not a model of `task`
 */
async function loadModel(
  id: string,
  entry: { dir: string; treeHash?: string },
  task: ModelTask,
  code: 'MODEL_UNAVAILABLE' | 'MODEL_DIR_INVALID',
): Promise<RegisteredModel> {
  let plugin: LoadedPlugin;
  try {
    plugin = await loadPluginDir(entry.dir);
  } catch (e) {
    throw new ModelChannelError(
      'MODEL_UNAVAILABLE',
      `the ${task} model ${id} cannot be loaded from ${entry.dir}: ${(e as Error).message}; register it again with travsr model add or travsr model install`,
    );
  }
  const m = plugin.manifest;
  if (m.kind !== 'model' || m.model?.task !== task)
    throw new ModelChannelError(
      code,
      `${id} (${entry.dir}) is not ${task === 'embed' ? 'an embedding' : 'a rerank'} model; \`travsr model list\` shows the registered ones — install one with travsr model install or add one with travsr model add`,
    );
  return {
    plugin,
    task,
    info: m.model,
    ...(entry.treeHash ? { treeHash: entry.treeHash } : {}),
    key: modelKey(m.id, m.version, entry.treeHash),
  };
}

/** See {@link RegisteredModel.key}. */
export function modelKey(id: string, version: string, treeHash: string | undefined): string {
  const digest = treeHash?.replace(/^sha256:/, '').slice(0, 12);
  return digest ? `${id}@${version}+${digest}` : `${id}@${version}`;
}

/**
 * Makes the installed or added model plugin `id` the one registered for its task (`travsr embed
 * --model`); returns it loaded.
 * @throws ModelChannelError MODEL_NOT_REGISTERED (no plugin of that id), MODEL_DIR_INVALID (not a model of `task`)
 */
export async function useModel(id: string, task: ModelTask): Promise<RegisteredModel> {
  const reg = readLangToml();
  const entry = reg.plugins[id];
  if (!entry)
    throw new ModelChannelError(
      'MODEL_NOT_REGISTERED',
      `no model plugin ${id} is installed: install it with travsr model install ${id}, or add a directory with travsr model add`,
    );
  const model = await loadModel(id, entry, task, 'MODEL_DIR_INVALID');
  (reg.models ??= {})[task] = id;
  writeLangToml(reg);
  return model;
}

/**
 * Removes the model registered for a task (`embed`, `rerank`), or the model plugin with this id
 * (registered or not); returns what was removed. A model plugin `travsr model add` made is
 * deleted with it; a directory the user gave, or one `model install` installed, is left to them
 * (`travsr lang prune` removes installed files nothing uses).
 */
export function removeModel(taskOrId: string): ModelListing[] {
  const reg = readLangToml();
  const removed = listModels().filter((m) => (m.registered && m.task === taskOrId) || m.id === taskOrId);
  for (const m of removed) {
    if (reg.models?.[m.task] === m.id) delete reg.models[m.task];
    forgetUnused(reg, m.id);
  }
  if (removed.length > 0) writeLangToml(reg);
  return removed;
}

/** Drops plugin `id` from `reg` when nothing uses it any more, and the plugin directory `model add` made for it. */
function forgetUnused(reg: ReturnType<typeof readLangToml>, id: string): void {
  const entry = reg.plugins[id];
  if (!entry || Object.values(reg.models ?? {}).includes(id) || isLanguagePlugin(reg, id)) return;
  delete reg.plugins[id];
  if (resolve(entry.dir).startsWith(modelsHome() + sep)) rmSync(entry.dir, { recursive: true, force: true });
}

function isLanguagePlugin(reg: ReturnType<typeof readLangToml>, id: string): boolean {
  return Object.values(reg.languages).some((l) => l.plugin === id);
}
