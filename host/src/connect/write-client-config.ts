import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  constants,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { MCP_SERVERS_KEY } from './client-configs.js';
import { ConnectError } from './errors.js';
import { formatJson, jsonEqual, positionAt, scanJson } from './json-text.js';

/** An MCP client's configuration file as read: the whole document and its server table. */
export interface ClientConfigFile {
  path: string;
  exists: boolean;
  /** The bytes read, as text (BOM included), to notice a concurrent rewrite. */
  raw: string | undefined;
  doc: Record<string, unknown>;
  /** `doc.mcpServers`, or a new empty table when the file has none. */
  servers: Record<string, unknown>;
  eol: '\n' | '\r\n';
}

/** Add or replace the entry `name`, or remove it. */
export type ServerChange = { op: 'set'; name: string; entry: Record<string, unknown>; force: boolean } | { op: 'remove'; name: string };

export type ServerChangeAction = 'added' | 'replaced' | 'unchanged' | 'removed' | 'absent';

export interface ServerChangeResult {
  path: string;
  action: ServerChangeAction;
  /** Whether the file was (or, in a dry run, would be) rewritten. */
  changed: boolean;
  /** The copy of the previous file that was (or would be) made; null when there was no file or no change. */
  backup: string | null;
  /** The entry of that name before the change. */
  previous: unknown;
  /** The file's new text when it changes. */
  text: string | null;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const kindOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`);
const UNTOUCHED = 'the file was not changed';

/**
 * Reads and checks a client configuration file. A missing file reads as empty.
 * @throws ConnectError `CLIENT_CONFIG_INVALID` (with `file:line:col` for syntax errors),
 *   `CLIENT_CONFIG_UNSUPPORTED`, `CLIENT_CONFIG_UNREADABLE`.
 */
export function readClientConfig(path: string): ClientConfigFile {
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { path, exists: false, raw: undefined, doc: {}, servers: {}, eol: '\n' };
    throw new ConnectError('CLIENT_CONFIG_UNREADABLE', `cannot read ${path}: ${(e as Error).message}`, path);
  }
  // Windows editors may save a byte-order mark; JSON.parse rejects it, the clients accept it.
  const text = raw.startsWith('\uFEFF') ? raw.slice(1) : raw;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  if (text.trim() === '') return { path, exists: true, raw, doc: {}, servers: {}, eol };

  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    const found = scanJson(text).error;
    const where = found ? positionAt(text, found.offset) : undefined;
    throw new ConnectError(
      'CLIENT_CONFIG_INVALID',
      `${path}${where ? `:${where.line}:${where.column}` : ''}: not valid JSON (${found?.message ?? (e as Error).message}); fix the file or move it away, then run again (${UNTOUCHED})`,
      path,
    );
  }
  if (!isPlainObject(doc))
    throw new ConnectError(
      'CLIENT_CONFIG_INVALID',
      `${path}: the top level is ${kindOf(doc)}, not a JSON object; fix the file or move it away (${UNTOUCHED})`,
      path,
    );
  const lossy = scanJson(text).lossyNumbers[0];
  if (lossy) {
    const at = positionAt(text, lossy.offset);
    throw new ConnectError(
      'CLIENT_CONFIG_UNSUPPORTED',
      `${path}:${at.line}:${at.column}: the number ${lossy.text} is outside the range JavaScript keeps exactly, so rewriting the file would change it; add the server entry by hand (${UNTOUCHED})`,
      path,
    );
  }
  const servers = doc[MCP_SERVERS_KEY];
  if (servers !== undefined && !isPlainObject(servers))
    throw new ConnectError(
      'CLIENT_CONFIG_INVALID',
      `${path}: "${MCP_SERVERS_KEY}" is ${kindOf(servers)}, not an object of servers by name; fix it by hand (${UNTOUCHED})`,
      path,
    );
  return { path, exists: true, raw, doc, servers: servers ?? {}, eol };
}

/**
 * Adds, replaces or removes one server entry of a client configuration file, keeping every other
 * key and server. An existing file is copied to `<file>.travsr-backup-<timestamp>` first; the new
 * text goes to a temporary file in the same folder, renamed over the old one, so a crash leaves
 * either the old or the new file. Missing folders are created. Nothing is written when the result
 * would be the same, or with `dryRun`.
 * @throws ConnectError `CLIENT_CONFIG_CONFLICT` when `name` exists with other content and `force`
 *   is not set; `CLIENT_CONFIG_CHANGED` when another program rewrote the file meanwhile; the
 *   errors of {@link readClientConfig}; `CLIENT_CONFIG_UNWRITABLE`.
 */
export function applyServerChange(path: string, change: ServerChange, opts: { dryRun?: boolean; now?: Date } = {}): ServerChangeResult {
  const file = readClientConfig(path);
  const previous = Object.hasOwn(file.servers, change.name) ? file.servers[change.name] : undefined;
  const unchanged = (action: ServerChangeAction): ServerChangeResult => ({
    path,
    action,
    changed: false,
    backup: null,
    previous,
    text: null,
  });

  let action: ServerChangeAction;
  if (change.op === 'remove') {
    if (previous === undefined) return unchanged('absent');
    delete file.servers[change.name];
    action = 'removed';
  } else {
    if (previous !== undefined && jsonEqual(previous, change.entry)) return unchanged('unchanged');
    if (previous !== undefined && !change.force)
      throw new ConnectError(
        'CLIENT_CONFIG_CONFLICT',
        `${path} already has an MCP server "${change.name}" that differs from this one (${describeEntry(previous)}); pass --force to replace it (the file is backed up first), or --name to add this one under another name`,
        path,
      );
    file.servers[change.name] = change.entry;
    action = previous === undefined ? 'added' : 'replaced';
  }
  file.doc[MCP_SERVERS_KEY] = file.servers;
  const text = formatJson(file.doc, file.eol);
  const now = opts.now ?? new Date();
  const backup = file.exists ? (opts.dryRun ? backupPath(path, now) : null) : null;
  if (opts.dryRun) return { path, action, changed: true, backup, previous, text };
  return { path, action, changed: true, backup: writeAtomically(file, text, now), previous, text };
}

/** `command args…` of an entry, shortened, for messages. */
function describeEntry(entry: unknown): string {
  if (!isPlainObject(entry)) return `it is ${kindOf(entry)}`;
  const { command, args, url } = entry;
  const s =
    typeof command === 'string'
      ? `it runs ${[command, ...(Array.isArray(args) ? args.map(String) : [])].join(' ')}`
      : typeof url === 'string'
        ? `it connects to ${url}`
        : `its keys are ${Object.keys(entry).join(', ')}`;
  return s.length > 240 ? `${s.slice(0, 239)}…` : s;
}

/** `<file>.travsr-backup-<UTC time>`, with `-2`, `-3`… when that name is taken. */
function backupPath(path: string, now: Date): string {
  const base = `${path}.travsr-backup-${now.toISOString().replace(/[:.]/g, '-')}`;
  let candidate = base;
  for (let n = 2; existsSync(candidate); n++) candidate = `${base}-${n}`;
  return candidate;
}

/** Writes `text` over the file read in `file`; returns the backup made, if any. */
function writeAtomically(file: ClientConfigFile, text: string, now: Date): string | null {
  const { path } = file;
  let tmp: string | undefined;
  try {
    // Write through a symlink (dotfiles managers link these files) rather than replace it.
    const target = file.exists ? realpathSync(path) : path;
    mkdirSync(dirname(target), { recursive: true });
    tmp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(tmp, text, { flag: 'wx' });
    if (file.exists) chmodSync(tmp, statSync(target).mode & 0o7777); // ~/.claude.json is private; keep it so
    let backup: string | null = null;
    if (file.exists) {
      if (readFileSync(target, 'utf8') !== file.raw)
        throw new ConnectError(
          'CLIENT_CONFIG_CHANGED',
          `${path} was changed by another program while travsr was updating it; run the command again (${UNTOUCHED})`,
          path,
        );
      backup = copyBackup(target, path, now);
    }
    renameSync(tmp, target);
    tmp = undefined;
    return backup;
  } catch (e) {
    if (tmp) rmSync(tmp, { force: true });
    if (e instanceof ConnectError) throw e;
    throw new ConnectError(
      'CLIENT_CONFIG_UNWRITABLE',
      `cannot write ${path}: ${(e as Error).message}; check the folder's permissions`,
      path,
    );
  }
}

function copyBackup(source: string, path: string, now: Date): string {
  for (;;) {
    const dest = backupPath(path, now);
    try {
      copyFileSync(source, dest, constants.COPYFILE_EXCL);
      return dest;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}
