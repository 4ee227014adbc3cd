import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse, stringify, TomlError } from 'smol-toml';
import { TravsrError } from '@travsr/protocol';
import { travsrHome } from '../paths/travsr-home.js';

/** A language's registration: which plugin serves it and what the user allowed. */
export interface LanguageEntry {
  plugin?: string;
  /** Set by `travsr lang allow-unsandboxed <lang>`. */
  allowUnsandboxed: boolean;
}

/** An installed plugin's registration: where it is, its tree hash and its granted tier. */
export interface PluginEntry {
  version: string;
  dir: string;
  treeHash?: string;
  /** SHA-256 of the SBOM installed with it (kept in the install record), when it came with one. */
  sbomSha256?: string;
  tier: 'standard' | 'native-ipc' | 'elevated' | 'unsandboxed';
  networkAllow: string[];
}

/** The model plugin serving each task of the semantic layer (`travsr model add`, `travsr rerank install`). */
export interface ModelRegistrations {
  /** The embedding model `travsr embed` and the vector channel of `get_context` use. */
  embed?: string;
  /** The cross-encoder that reranks `get_context`'s shortlist. */
  rerank?: string;
}

/** The contents of `~/.travsr/lang.toml`. */
export interface LangRegistry {
  languages: Record<string, LanguageEntry>;
  plugins: Record<string, PluginEntry>;
  /** Model plugins by task; each is also in {@link plugins}. */
  models?: ModelRegistrations;
}

/** Error about lang.toml; the message names the file (and line, when it is a syntax error). */
export class LangTomlError extends TravsrError {
  override readonly name = 'LangTomlError';
  constructor(
    readonly code: 'LANG_TOML_INVALID' | 'LANG_TOML_UNWRITABLE',
    message: string,
  ) {
    super(message);
  }
}

const TIERS = new Set(['standard', 'native-ipc', 'elevated', 'unsandboxed']);

/** Path of the user's language registrations. */
export function langTomlPath(): string {
  return join(travsrHome(), 'lang.toml');
}

/** Reads lang.toml; a missing file is an empty registry. */
export function readLangToml(path = langTomlPath()): LangRegistry {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { languages: {}, plugins: {} };
  }
  let doc: Record<string, unknown>;
  try {
    doc = parse(text);
  } catch (e) {
    const where = e instanceof TomlError ? `${path}:${e.line}:${e.column}` : path;
    throw new LangTomlError(
      'LANG_TOML_INVALID',
      `${where}: ${firstLine((e as Error).message)}; fix the file or delete it and register the plugins again`,
    );
  }
  const bad = (what: string) =>
    new LangTomlError('LANG_TOML_INVALID', `${path}: ${what}; fix the file or delete it and register the plugins again`);
  const reg: LangRegistry = { languages: {}, plugins: {} };
  for (const [lang, raw] of Object.entries(asTable(doc.languages, 'languages', bad))) {
    const t = asTable(raw, `languages.${lang}`, bad);
    const entry: LanguageEntry = { allowUnsandboxed: t.allow_unsandboxed === true };
    if (typeof t.plugin === 'string') entry.plugin = t.plugin;
    reg.languages[lang] = entry;
  }
  for (const [id, raw] of Object.entries(asTable(doc.plugins, 'plugins', bad))) {
    const t = asTable(raw, `plugins.${id}`, bad);
    if (typeof t.version !== 'string' || typeof t.dir !== 'string') throw bad(`plugins.${id} needs string "version" and "dir"`);
    const tier = t.tier ?? 'standard';
    if (typeof tier !== 'string' || !TIERS.has(tier)) throw bad(`plugins.${id}.tier must be one of ${[...TIERS].join(', ')}`);
    const entry: PluginEntry = {
      version: t.version,
      dir: t.dir,
      tier: tier as PluginEntry['tier'],
      networkAllow: Array.isArray(t.network_allow) ? t.network_allow.filter((h): h is string => typeof h === 'string') : [],
    };
    if (typeof t.tree_hash === 'string') entry.treeHash = t.tree_hash;
    if (typeof t.sbom_sha256 === 'string') entry.sbomSha256 = t.sbom_sha256;
    reg.plugins[id] = entry;
  }
  const models = asTable(doc.models, 'models', bad);
  for (const task of ['embed', 'rerank'] as const) {
    const id = models[task];
    if (id === undefined) continue;
    if (typeof id !== 'string') throw bad(`models.${task} must name a plugin of [plugins] (it names ${JSON.stringify(id)})`);
    // A model whose plugin entry is gone (removed by hand) serves nothing: left out, and out of the file at its next write.
    if (reg.plugins[id]) (reg.models ??= {})[task] = id;
  }
  return reg;
}

/** Writes lang.toml atomically (temp file + rename). */
export function writeLangToml(reg: LangRegistry, path = langTomlPath()): void {
  const doc: Record<string, unknown> = { languages: {}, plugins: {} };
  for (const [lang, e] of Object.entries(reg.languages)) {
    (doc.languages as Record<string, unknown>)[lang] = { ...(e.plugin ? { plugin: e.plugin } : {}), allow_unsandboxed: e.allowUnsandboxed };
  }
  for (const [id, p] of Object.entries(reg.plugins)) {
    (doc.plugins as Record<string, unknown>)[id] = {
      version: p.version,
      dir: p.dir,
      ...(p.treeHash ? { tree_hash: p.treeHash } : {}),
      ...(p.sbomSha256 ? { sbom_sha256: p.sbomSha256 } : {}),
      tier: p.tier,
      network_allow: p.networkAllow,
    };
  }
  const models: Record<string, string> = {};
  for (const task of ['embed', 'rerank'] as const) {
    const id = reg.models?.[task];
    if (id !== undefined && reg.plugins[id] !== undefined) models[task] = id;
  }
  if (Object.keys(models).length > 0) doc.models = models;
  try {
    mkdirSync(dirname(path), { recursive: true });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, `# Travsr language registrations. Managed by \`travsr lang\`; edits are kept.\n${stringify(doc)}\n`);
    renameSync(tmp, path);
  } catch (e) {
    throw new LangTomlError('LANG_TOML_UNWRITABLE', `cannot write ${path}: ${(e as Error).message}`);
  }
}

/** True when the user allowed any of `languages` to run unsandboxed. */
export function unsandboxedAllowed(reg: LangRegistry, languages: readonly string[]): boolean {
  return languages.some((l) => reg.languages[l]?.allowUnsandboxed === true);
}

function asTable(v: unknown, name: string, bad: (w: string) => Error): Record<string, unknown> {
  if (v === undefined) return {};
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw bad(`[${name}] must be a table`);
  return v as Record<string, unknown>;
}

function firstLine(s: string): string {
  return s.split('\n')[0] ?? s;
}
