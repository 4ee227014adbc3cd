import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parse, stringify, TomlError } from 'smol-toml';
import { ConfigError } from './errors.js';
import { readConfigFile } from './load.js';
import {
  CONFIG_KEYS,
  CONFIG_SCHEMA,
  isConfigKey,
  isTable,
  unknownKeyError,
  valueFromData,
  valueFromText,
  type ConfigKey,
} from './schema.js';
import { lineOfKey, tomlKeyLines } from './toml-lines.js';

/** What setConfigValue wrote. */
export interface ConfigWrite {
  readonly path: string;
  /** The key as given: a schema key, or one entry of a table key (`plugins.prefer.python`). */
  readonly key: string;
  readonly value: unknown;
}

const HEADER =
  '# Travsr configuration; `travsr config list` shows every key, its value and where it comes from.\n' +
  '# `travsr config set` and `travsr config unset` rewrite this file from its values: comments are not kept.\n';

/**
 * Sets `key` in the TOML file at `filePath` (created, with its directory, when missing) to `rawValue`,
 * read like an environment variable (lists comma-separated, tables `language=plugin,…`) and validated
 * against the schema. `key` may also name one entry of a table key: `plugins.prefer.python`.
 *
 * The other keys of the file are kept, unknown ones included, but the file is rewritten from its parsed
 * values: comments and formatting are lost. The write is atomic (temporary file + rename), and nothing
 * is written when the value is invalid or the file is not valid TOML.
 */
export function setConfigValue(filePath: string, key: string, rawValue: string): ConfigWrite {
  const target = parseEditKey(key);
  if (!target) throw unknownKeyError(key);
  let value: unknown;
  if (target.entry === undefined) {
    const r = valueFromText(target.key, rawValue);
    if (!r.ok) throw new ConfigError('CONFIG_INVALID', `${key} ${r.problem}; nothing was written`);
    value = r.value;
  } else {
    const r = valueFromData(target.key, { [target.entry]: rawValue.trim() });
    if (!r.ok) throw new ConfigError('CONFIG_INVALID', `${target.key} ${r.problem}; nothing was written`);
    value = rawValue.trim();
  }
  const { doc, text } = readDoc(filePath);
  const segments = [...target.key.split('.'), ...(target.entry === undefined ? [] : [target.entry])];
  let table = doc;
  for (const [i, name] of segments.slice(0, -1).entries()) {
    const next = table[name];
    if (next === undefined) table[name] = Object.create(null) as Record<string, unknown>;
    else if (!isTable(next)) {
      const at = segments.slice(0, i + 1);
      const line = lineOfKey(tomlKeyLines(text), at);
      throw new ConfigError(
        'CONFIG_INVALID',
        `${filePath}${line === undefined ? '' : `:${line}`}: ${at.join('.')} is a single value, not a table, so ${key} cannot be set; fix the file`,
      );
    }
    table = table[name] as Record<string, unknown>;
  }
  table[segments[segments.length - 1] ?? key] = value;
  writeDoc(filePath, doc);
  return { path: filePath, key, value };
}

/**
 * Removes `key` from the TOML file at `filePath`, and tables left empty by it; returns whether it was there.
 * Besides schema keys and table entries (`plugins.prefer.python`), an unknown key that is in the file may be
 * removed (to clean up what a warning pointed at). Like setConfigValue, it rewrites the file atomically and
 * loses its comments; a missing file is left missing.
 */
export function unsetConfigValue(filePath: string, key: string): boolean {
  const known = parseEditKey(key) !== undefined;
  // A table of known keys ("index") is not removed as a whole.
  if (!known && CONFIG_KEYS.some((k) => k.startsWith(`${key}.`))) throw unknownKeyError(key);
  const file = readConfigFile(filePath);
  if (!file) {
    if (!known) throw unknownKeyError(key);
    return false;
  }
  const { doc } = readDoc(filePath, file.text);
  const segments = key.split('.');
  const path: Record<string, unknown>[] = [doc];
  for (const name of segments.slice(0, -1)) {
    const next = path[path.length - 1]?.[name];
    if (!isTable(next)) {
      if (!known) throw unknownKeyError(key);
      return false;
    }
    path.push(next);
  }
  const last = segments[segments.length - 1] ?? key;
  const parent = path[path.length - 1];
  if (!parent || !Object.hasOwn(parent, last)) {
    if (!known) throw unknownKeyError(key);
    return false;
  }
  delete parent[last];
  for (let i = path.length - 1; i > 0; i--) {
    const t = path[i];
    const name = segments[i - 1];
    if (t && name !== undefined && Object.keys(t).length === 0) delete path[i - 1]?.[name];
  }
  writeDoc(filePath, doc);
  return true;
}

/** A schema key, or `<table key>.<entry>` for table-valued keys (the entry may hold dots: `plugins.options.lang-python.scipPython`). */
function parseEditKey(key: string): { key: ConfigKey; entry?: string } | undefined {
  if (isConfigKey(key)) return { key };
  for (let dot = key.indexOf('.'); dot > 0; dot = key.indexOf('.', dot + 1)) {
    const head = key.slice(0, dot);
    if (isConfigKey(head) && CONFIG_SCHEMA[head].kind === 'string-map') return { key: head, entry: key.slice(dot + 1) };
  }
  return undefined;
}

function readDoc(path: string, known?: string): { doc: Record<string, unknown>; text: string } {
  const text = known ?? readConfigFile(path)?.text ?? '';
  try {
    return { doc: parse(text, { integersAsBigInt: true }), text };
  } catch (e) {
    if (!(e instanceof TomlError)) throw e;
    const what = (e.message.split('\n')[0] ?? e.message).replace(/^Invalid TOML document: /, '');
    throw new ConfigError(
      'CONFIG_INVALID',
      `${path}:${e.line}:${e.column}: TOML syntax error: ${what}; fix the file first (nothing was written)`,
    );
  }
}

function writeDoc(path: string, doc: Record<string, unknown>): void {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    const body = stringify(doc).replace(/^\n+/, '');
    writeFileSync(tmp, body.length > 0 ? `${HEADER}\n${body}` : HEADER);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw new ConfigError('CONFIG_UNWRITABLE', `cannot write ${path}: ${(e as Error).message}`);
  }
}
