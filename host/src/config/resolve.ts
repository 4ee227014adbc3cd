import { availableParallelism } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { parse, TomlError } from 'smol-toml';
import { ConfigError } from './errors.js';
import {
  CONFIG_KEYS,
  closeConfigKeys,
  configFlagName,
  isConfigKey,
  isSecurityKey,
  isTable,
  keySpec,
  unknownKeyError,
  valueFromData,
  valueFromFlag,
  valueFromText,
  type ConfigKey,
  type ConfigTypes,
  type MachineFacts,
} from './schema.js';
import type { RepoTrustState } from './repo-trust.js';
import { lineOfKey, tomlKeyLines } from './toml-lines.js';

/** Where a value came from, highest precedence first. */
export type ConfigSource = 'flag' | 'env' | 'repo' | 'user' | 'default';

/** A resolved value and where it came from: `origin` is `path:line` (files), the variable name (env) or the flag (`--index-workers`). */
export interface ConfigValue<T> {
  readonly value: T;
  readonly source: ConfigSource;
  readonly origin?: string;
}

/** Every key's resolved value. */
export type ConfigValues = { readonly [K in ConfigKey]: ConfigValue<ConfigTypes[K]> };

/** Something in a file that is ignored but probably a mistake (an unknown key). */
export interface ConfigWarning {
  readonly code: 'CONFIG_UNKNOWN_KEY';
  /** `path:line` */
  readonly origin: string;
  /** The key as written, dotted. */
  readonly key: string;
  readonly message: string;
}

/**
 * A security key (see ConfigTrust) that the repository's file sets but that does not count,
 * because the user has not trusted the repository (`untrusted`) or the file changed since (`changed`).
 */
export interface IgnoredConfigValue {
  readonly key: ConfigKey;
  readonly value: unknown;
  /** `path:line` */
  readonly origin: string;
  readonly reason: 'untrusted' | 'changed';
  /** One line for people: where, which key, why, and to run `travsr trust`. */
  readonly message: string;
}

/** The result of resolution. */
export interface ResolvedConfig {
  readonly values: ConfigValues;
  readonly warnings: readonly ConfigWarning[];
  /** Security keys of an untrusted repository file, in file order; their values fell back to the lower layers. */
  readonly ignored: readonly IgnoredConfigValue[];
}

/** A configuration file's path and text; the resolver reads nothing itself. */
export interface ConfigFileText {
  readonly path: string;
  readonly text: string;
}

/** Everything the resolver looks at. */
export interface ConfigInputs {
  /** Values from command-line flags, by key: text (read like an environment variable) or a value of the key's type. `undefined` = not given. */
  readonly flags?: Readonly<Partial<Record<ConfigKey, unknown>>> | undefined;
  /** The environment (only the `TRAVSR_*` variables of the schema are read; an empty variable counts as unset). */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** `<repo>/.travsr/config.toml`, when it exists. */
  readonly repoFile?: ConfigFileText | undefined;
  /**
   * Whether the repository file's security keys count (see ConfigTrust and repo-trust.ts).
   * Default `untrusted`: a file nobody vouched for sets only ordinary keys.
   */
  readonly repoTrust?: RepoTrustState | undefined;
  /** `~/.travsr/config.toml`, when it exists. */
  readonly userFile?: ConfigFileText | undefined;
  /** Defaults that depend on the machine; when absent, read from `os` (pass it for a fully deterministic result). */
  readonly machine?: MachineFacts | undefined;
  /** Base of relative directories given by flags and environment variables; without it they stay relative. */
  readonly cwd?: string | undefined;
  /** The user's home directory, for `~/` in directory values; without it `~` stays as written. */
  readonly home?: string | undefined;
}

type Layer = Map<ConfigKey, ConfigValue<unknown>>;

/**
 * Resolves every configuration key, highest precedence first: flag > environment variable >
 * repository file > user file > built-in default. Pure: it does no I/O, so the same inputs give the
 * same result. A value replaces the lower layers' value as a whole (lists and tables are not merged).
 *
 * Every layer is validated, even when a higher one overrides it, so a broken file is reported at once.
 * Throws ConfigError `CONFIG_INVALID` for a TOML syntax error (`path:line:col`), a value of the wrong type
 * or out of range (`path:line`, or the variable or flag) — and `CONFIG_UNKNOWN_KEY` for an unknown flag key.
 * Unknown keys in a file are not errors: they are ignored and listed in `warnings`.
 * Security keys of a repository file that is not `trusted` (`inputs.repoTrust`) are validated,
 * then ignored and listed in `ignored`.
 *
 * @example
 * const cfg = resolveConfig({ env: { TRAVSR_LOG_LEVEL: 'debug' }, repoFile: { path: '/r/.travsr/config.toml', text: '[index]\nworkers = 2\n' } });
 * cfg.values['index.workers']; // { value: 2, source: 'repo', origin: '/r/.travsr/config.toml:2' }
 * cfg.values['log.level'];     // { value: 'debug', source: 'env', origin: 'TRAVSR_LOG_LEVEL' }
 */
export function resolveConfig(inputs: ConfigInputs): ResolvedConfig {
  const warnings: ConfigWarning[] = [];
  const dirs = { cwd: inputs.cwd, home: inputs.home };
  const user = inputs.userFile
    ? fileLayer('user', inputs.userFile, dirname(inputs.userFile.path), dirs.home, warnings)
    : (new Map() as Layer);
  const repo = inputs.repoFile
    ? fileLayer('repo', inputs.repoFile, repoRootOf(inputs.repoFile.path), dirs.home, warnings)
    : (new Map() as Layer);
  const ignored: IgnoredConfigValue[] = [];
  const trust = inputs.repoTrust ?? 'untrusted';
  if (inputs.repoFile && trust !== 'trusted') {
    for (const [key, v] of repo) {
      if (!isSecurityKey(key)) continue;
      repo.delete(key);
      const origin = v.origin ?? inputs.repoFile.path;
      ignored.push({ key, value: v.value, origin, reason: trust, message: ignoredMessage(key, origin, inputs.repoFile.path, trust) });
    }
  }
  const env = envLayer(inputs.env ?? {}, dirs);
  const flags = flagLayer(inputs.flags ?? {}, dirs);
  const machine = inputs.machine ?? { availableParallelism: availableParallelism() };
  const values: Record<string, ConfigValue<unknown>> = {};
  for (const key of CONFIG_KEYS) {
    const fallback: ConfigValue<unknown> = { value: keySpec(key).defaultValue(machine), source: 'default' };
    values[key] = flags.get(key) ?? env.get(key) ?? repo.get(key) ?? user.get(key) ?? fallback;
  }
  return { values: values as unknown as ConfigValues, warnings, ignored };
}

function ignoredMessage(key: ConfigKey, origin: string, file: string, reason: 'untrusted' | 'changed'): string {
  const why =
    reason === 'changed'
      ? `${file} changed since you trusted it, so the trust was revoked; review the file and run \`travsr trust\` to honour it again`
      : `this repository is not trusted, and its own config file may set security keys (code to run, sandbox, registry) only with your consent; review ${file} and run \`travsr trust\` to honour them`;
  return `${origin}: ${key} is ignored: ${why}`;
}

/** The root a repository file's relative paths refer to: the folder holding `.travsr/`. */
function repoRootOf(path: string): string {
  const dir = dirname(path);
  return basename(dir) === '.travsr' ? dirname(dir) : dir;
}

function fileLayer(
  source: 'repo' | 'user',
  file: ConfigFileText,
  base: string,
  home: string | undefined,
  warnings: ConfigWarning[],
): Layer {
  const fix = (key: string) => `fix the file or run \`travsr config unset ${key}${source === 'user' ? ' --global' : ''}\``;
  let doc: Record<string, unknown>;
  try {
    doc = parse(file.text, { integersAsBigInt: true });
  } catch (e) {
    if (!(e instanceof TomlError)) throw e;
    const what = (e.message.split('\n')[0] ?? e.message).replace(/^Invalid TOML document: /, '');
    throw new ConfigError('CONFIG_INVALID', `${file.path}:${e.line}:${e.column}: TOML syntax error: ${what}; fix the file`);
  }
  const lines = tomlKeyLines(file.text);
  const at = (segments: string[]) => {
    const line = lineOfKey(lines, segments);
    return line === undefined ? file.path : `${file.path}:${line}`;
  };
  const layer: Layer = new Map();
  const walk = (table: Record<string, unknown>, prefix: string[]) => {
    for (const [name, raw] of Object.entries(table)) {
      const segments = [...prefix, name];
      const dotted = segments.join('.');
      const plain = !name.includes('.');
      if (plain && isConfigKey(dotted)) {
        const r = valueFromData(dotted, raw);
        if (!r.ok) {
          const where = at(r.entry === undefined ? segments : [...segments, r.entry]);
          throw new ConfigError('CONFIG_INVALID', `${where}: ${dotted} ${r.problem}; ${fix(dotted)}`);
        }
        const value = keySpec(dotted).paths ? resolveDirs(r.value as string[], base, home) : r.value;
        layer.set(dotted, { value, source, origin: at(segments) });
      } else if (plain && CONFIG_KEYS.some((k) => k.startsWith(`${dotted}.`))) {
        if (!isTable(raw))
          throw new ConfigError(
            'CONFIG_INVALID',
            `${at(segments)}: ${dotted} must be a table ([${dotted}]), not a single value; ${fix(dotted)}`,
          );
        walk(raw, segments);
      } else {
        const close = closeConfigKeys(dotted);
        warnings.push({
          code: 'CONFIG_UNKNOWN_KEY',
          origin: at(segments),
          key: dotted,
          message: `${at(segments)}: unknown key "${dotted}" is ignored${close.length > 0 ? ` (did you mean ${close.join(', ')}?)` : ''}`,
        });
      }
    }
  };
  takeLangScipTables(doc, at, warnings);
  walk(doc, []);
  return layer;
}

/** The keys of `[lang.<language>.scip]` and the `lang.*` map key each one goes into. */
const LANG_SCIP_FIELDS: Readonly<Record<string, 'lang.scipCommand' | 'lang.scipTier' | 'lang.scipNetwork'>> = {
  command: 'lang.scipCommand',
  tier: 'lang.scipTier',
  network: 'lang.scipNetwork',
};

/**
 * Reads `[lang.<language>.scip]` tables (`command`, `tier`, `network`) into the `lang.scipCommand`,
 * `lang.scipTier` and `lang.scipNetwork` tables they stand for, in place, so that they are checked
 * and layered like any key. Other keys under `lang.<language>` are warned about and ignored.
 */
function takeLangScipTables(doc: Record<string, unknown>, at: (segments: string[]) => string, warnings: ConfigWarning[]): void {
  const lang = doc['lang'];
  if (!isTable(lang)) return;
  for (const [language, raw] of Object.entries(lang)) {
    if (Object.values(LANG_SCIP_FIELDS).some((k) => k === `lang.${language}`)) continue;
    delete lang[language];
    const scip = isTable(raw) ? raw['scip'] : undefined;
    const extra = isTable(raw) ? Object.keys(raw).filter((k) => k !== 'scip') : [];
    for (const key of extra.length > 0 || !isTable(scip) ? [...extra, ...(isTable(scip) ? [] : ['scip'])] : []) {
      const segments = ['lang', language, key];
      warnings.push({
        code: 'CONFIG_UNKNOWN_KEY',
        origin: at(segments),
        key: segments.join('.'),
        message: `${at(segments)}: unknown key "${segments.join('.')}" is ignored (a language's table holds [lang.${language}.scip] with command, tier and network)`,
      });
    }
    if (!isTable(scip)) continue;
    for (const [field, value] of Object.entries(scip)) {
      const key = LANG_SCIP_FIELDS[field];
      const segments = ['lang', language, 'scip', field];
      if (!key) {
        warnings.push({
          code: 'CONFIG_UNKNOWN_KEY',
          origin: at(segments),
          key: segments.join('.'),
          message: `${at(segments)}: unknown key "${segments.join('.')}" is ignored (did you mean command, tier or network?)`,
        });
        continue;
      }
      const table = key.slice('lang.'.length);
      const target = isTable(lang[table]) ? lang[table] : (lang[table] = {});
      // network = ["host", "host:port"] is kept as the space-separated text the map holds.
      target[language] = field === 'network' && Array.isArray(value) ? value.join(' ') : value;
    }
  }
}

function envLayer(env: Readonly<Record<string, string | undefined>>, dirs: { cwd: string | undefined; home: string | undefined }): Layer {
  const layer: Layer = new Map();
  for (const key of CONFIG_KEYS) {
    const spec = keySpec(key);
    const text = env[spec.env];
    if (text === undefined || text === '') continue;
    const r = valueFromText(key, text);
    if (!r.ok) throw new ConfigError('CONFIG_INVALID', `environment variable ${spec.env}: ${key} ${r.problem}; fix or unset ${spec.env}`);
    layer.set(key, {
      value: spec.paths ? resolveDirs(r.value as string[], dirs.cwd, dirs.home) : r.value,
      source: 'env',
      origin: spec.env,
    });
  }
  return layer;
}

function flagLayer(flags: Readonly<Partial<Record<string, unknown>>>, dirs: { cwd: string | undefined; home: string | undefined }): Layer {
  const layer: Layer = new Map();
  for (const [key, raw] of Object.entries(flags)) {
    if (raw === undefined) continue;
    if (!isConfigKey(key)) throw unknownKeyError(key);
    const flag = configFlagName(key);
    const r = valueFromFlag(key, raw);
    if (!r.ok) throw new ConfigError('CONFIG_INVALID', `flag ${flag}: ${key} ${r.problem}`);
    layer.set(key, {
      value: keySpec(key).paths ? resolveDirs(r.value as string[], dirs.cwd, dirs.home) : r.value,
      source: 'flag',
      origin: flag,
    });
  }
  return layer;
}

function resolveDirs(dirs: string[], base: string | undefined, home: string | undefined): string[] {
  return dirs.map((d) => {
    if (home !== undefined && (d === '~' || d.startsWith('~/'))) return join(home, d.slice(1));
    return base === undefined || isAbsolute(d) ? d : resolve(base, d);
  });
}

/** Where a value comes from, for people: `repo: /r/.travsr/config.toml:3`, `env: TRAVSR_LOG_LEVEL`, `default`. */
export function describeConfigSource(v: ConfigValue<unknown>): string {
  return v.origin === undefined ? v.source : `${v.source}: ${v.origin}`;
}
