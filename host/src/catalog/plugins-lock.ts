import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isVersion, parseRange } from '@travsr/registry/semver';
import { parse, stringify, TomlError } from 'smol-toml';
import { repoTravsrDir } from '../paths/travsr-home.js';
import { LangError, LangErrorCode } from './errors.js';

/** One locked plugin: what was installed, from where, under which constraint, with which hashes. */
export interface LockEntry {
  /** Exact version installed. */
  version: string;
  /** Range that `lang update` stays within (`^0.1.0`; an exact version when pinned). */
  constraint: string;
  /** Registry URL or directory it came from; `builtin` for the registry that ships with Travsr; `local:<path>` for a plugin installed from a directory or archive. */
  registry: string;
  /** SHA-256 of the artifact archive (hex). */
  sha256: string;
  /** Tree hash of the installed files (`sha256:…`). */
  treeHash: string;
  /** SHA-256 of the artifact's SBOM (hex), when it was published or packed with one. */
  sbomSha256?: string;
}

/** Contents of `<repo>/.travsr/plugins.lock`, by plugin id. */
export type PluginsLock = Record<string, LockEntry>;

export const LOCK_FORMAT_VERSION = 1;

/** `<repo>/.travsr/plugins.lock` */
export function pluginsLockPath(repoRoot: string): string {
  return join(repoTravsrDir(repoRoot), 'plugins.lock');
}

/** Reads a lock file; a missing file is an empty lock. Errors name file:line. */
export function readPluginsLock(path: string): PluginsLock {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new LangError(LangErrorCode.LockInvalid, `cannot read ${path}: ${(e as Error).message}; check its permissions`);
  }
  let doc: Record<string, unknown>;
  try {
    doc = parse(text);
  } catch (e) {
    const where = e instanceof TomlError ? `${path}:${e.line}:${e.column}` : path;
    throw new LangError(
      LangErrorCode.LockInvalid,
      `${where}: ${(e as Error).message.split('\n')[0] ?? ''}; fix the file (or restore it from version control)`,
    );
  }
  const bad = (key: string, what: string) =>
    new LangError(
      LangErrorCode.LockInvalid,
      `${path}:${lineOf(text, key)}: ${what}; fix the entry or remove it and run \`travsr lang install\``,
    );
  if (
    doc.lockfileVersion !== undefined &&
    doc.lockfileVersion !== BigInt(LOCK_FORMAT_VERSION) &&
    doc.lockfileVersion !== LOCK_FORMAT_VERSION
  )
    throw bad(
      'lockfileVersion',
      `lockfileVersion ${JSON.stringify(doc.lockfileVersion)} is not supported (this Travsr reads ${LOCK_FORMAT_VERSION})`,
    );
  const plugins = doc.plugins ?? {};
  if (!isTable(plugins)) throw bad('plugins', '[plugins] must be a table');
  const lock: PluginsLock = {};
  for (const [id, raw] of Object.entries(plugins)) {
    if (!isTable(raw)) throw bad(id, `plugins."${id}" must be a table`);
    for (const f of ['version', 'constraint', 'registry', 'sha256', 'treeHash'] as const)
      if (typeof raw[f] !== 'string') throw bad(id, `plugins."${id}" needs a string "${f}"`);
    const entry = raw as unknown as LockEntry;
    if (!isVersion(entry.version)) throw bad(id, `plugins."${id}".version "${entry.version}" is not a version`);
    try {
      parseRange(entry.constraint);
    } catch {
      throw bad(id, `plugins."${id}".constraint "${entry.constraint}" is not a version range`);
    }
    if (!/^[0-9a-f]{64}$/.test(entry.sha256)) throw bad(id, `plugins."${id}".sha256 is not 64 hex digits`);
    if (!/^sha256:[0-9a-f]{64}$/.test(entry.treeHash)) throw bad(id, `plugins."${id}".treeHash is not sha256:<64 hex digits>`);
    if (raw.sbomSha256 !== undefined && (typeof raw.sbomSha256 !== 'string' || !/^[0-9a-f]{64}$/.test(raw.sbomSha256)))
      throw bad(id, `plugins."${id}".sbomSha256 is not 64 hex digits`);
    lock[id] = {
      version: entry.version,
      constraint: entry.constraint,
      registry: entry.registry,
      sha256: entry.sha256,
      treeHash: entry.treeHash,
      ...(typeof raw.sbomSha256 === 'string' ? { sbomSha256: raw.sbomSha256 } : {}),
    };
  }
  return lock;
}

/** Writes the lock atomically, entries sorted by id (a stable diff). */
export function writePluginsLock(path: string, lock: PluginsLock): void {
  const plugins: Record<string, LockEntry> = {};
  for (const id of Object.keys(lock).sort()) plugins[id] = lock[id] as LockEntry;
  const text = `# Travsr plugin lock: written by \`travsr lang\`; commit it. Every install checks these hashes.\n${stringify({ lockfileVersion: LOCK_FORMAT_VERSION, plugins })}\n`;
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/**
 * True when two entries pin the same thing (the registry they came from does not matter: the
 * hashes do). An SBOM hash counts only when both have one: a lock written before SBOMs were
 * recorded still matches, so `--frozen-lockfile` does not fail on it.
 */
export function sameLockEntry(a: LockEntry | undefined, b: LockEntry | undefined): boolean {
  if (!a || !b) return a === b;
  const sbom = a.sbomSha256 === undefined || b.sbomSha256 === undefined || a.sbomSha256 === b.sbomSha256;
  return a.version === b.version && a.constraint === b.constraint && a.sha256 === b.sha256 && a.treeHash === b.treeHash && sbom;
}

function isTable(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

/** 1-based line of the first line mentioning `key` (for messages); 1 when not found. */
function lineOf(text: string, key: string): number {
  const i = text.split('\n').findIndex((l) => l.includes(key));
  return i < 0 ? 1 : i + 1;
}
