import type { PluginManifest } from '@travsr/protocol';
import { WalkError, WalkErrorCode } from './errors.js';
import { wellKnownLanguage } from './well-known-languages.js';

/** Which plugin analyzes a file, and why that one. */
export interface LanguageMatch {
  /** The language the winning plugin maps the file to. */
  readonly language: string;
  /** Id of the plugin that analyzes the file. */
  readonly plugin: string;
  /** Every plugin that claims the deciding extension or file name, in registration order. */
  readonly candidates: readonly string[];
  /**
   * What decided, in one line for the trace, e.g.
   * `extension .lua → lua-fast: preferred plugin for lua (over lua-basic)`.
   */
  readonly rule: string;
}

/** A registered plugin as the language map needs it. */
export interface LanguagePlugin {
  id: string;
  manifest: Pick<PluginManifest, 'languages' | 'extensions'>;
  /** Explicit `{ extension or file name → language }` for a plugin with several languages. */
  extensionLanguages?: Readonly<Record<string, string>>;
}

/** Options of {@link LanguageMap.fromPlugins}. */
export interface LanguageMapOptions {
  /** `{ language → plugin id }`: the plugin to use when several claim a file of that language. */
  prefer?: Readonly<Record<string, string>>;
}

interface Claim {
  plugin: string;
  language: string;
}

type KeyKind = 'file name' | 'extension';

/** `.TS` and `.ts` are one extension; file names compare exactly. */
function normalizeKey(entry: string): string {
  return entry.startsWith('.') ? entry.toLowerCase() : entry;
}

/**
 * Maps each entry of a manifest's `extensions` (normalized: extensions lower-cased, file
 * names as written) to one of its `languages`:
 * - one language: every entry maps to it;
 * - several: the `explicit` table's entry if there is one, else the well-known language
 *   of that extension (`.py` → `python`) when the manifest declares it, else the first
 *   declared language.
 *
 * Throws `LANGUAGE_MAP_INVALID` when `explicit` names an extension the manifest does not
 * declare or a language it does not declare, or an entry is a bare `.`.
 *
 * @example
 * extensionLanguages({ languages: ['typescript', 'javascript'], extensions: ['.ts', '.js'] }, {}, 'lang-typescript')
 * // Map { '.ts' => 'typescript', '.js' => 'javascript' }
 */
export function extensionLanguages(
  manifest: Pick<PluginManifest, 'languages' | 'extensions'>,
  explicit: Readonly<Record<string, string>> = {},
  pluginId = 'the plugin',
): Map<string, string> {
  const declared = new Set(manifest.extensions.map(normalizeKey));
  const table = new Map<string, string>();
  for (const [entry, language] of Object.entries(explicit)) {
    const key = normalizeKey(entry);
    if (!declared.has(key)) {
      throw new WalkError(
        WalkErrorCode.LanguageMapInvalid,
        `${pluginId}: the extension table names ${entry}, which its manifest does not declare in "extensions"; add it there or drop it from the table.`,
      );
    }
    if (!manifest.languages.includes(language)) {
      throw new WalkError(
        WalkErrorCode.LanguageMapInvalid,
        `${pluginId}: the extension table maps ${entry} to ${language}, which its manifest does not declare in "languages" (${manifest.languages.join(', ')}).`,
      );
    }
    table.set(key, language);
  }
  const [first] = manifest.languages;
  if (first === undefined) {
    throw new WalkError(
      WalkErrorCode.LanguageMapInvalid,
      `${pluginId}: its manifest declares no language; declare at least one in "languages".`,
    );
  }
  const result = new Map<string, string>();
  for (const entry of manifest.extensions) {
    if (entry === '.') {
      throw new WalkError(
        WalkErrorCode.LanguageMapInvalid,
        `${pluginId}: "." in "extensions" names no extension; write the extension with its dot (".lua") or an exact file name.`,
      );
    }
    const key = normalizeKey(entry);
    if (result.has(key)) continue;
    if (manifest.languages.length === 1) {
      result.set(key, first);
      continue;
    }
    const known = wellKnownLanguage(key);
    result.set(key, table.get(key) ?? (known !== undefined && manifest.languages.includes(known) ? known : first));
  }
  return result;
}

/**
 * Which registered plugin analyzes which file, decided deterministically:
 * 1. an exact file-name rule (`Dockerfile`, case-sensitive) beats any extension;
 * 2. the longest claimed extension wins (`.d.ts` over `.ts`, `.test.lua` over `.lua`);
 *    extensions compare case-insensitively;
 * 3. among plugins claiming the same key: the first, in registration order, that the
 *    `prefer` option names for its language; else the first registered.
 *
 * @example
 * const map = LanguageMap.fromPlugins([{ id: 'example-lua', manifest }]);
 * map.match('src/init.lua')?.plugin; // 'example-lua'
 */
export class LanguageMap {
  private readonly decided = new Map<string, LanguageMatch | null>();

  private constructor(
    private readonly names: ReadonlyMap<string, readonly Claim[]>,
    private readonly extensions: ReadonlyMap<string, readonly Claim[]>,
    private readonly prefer: Readonly<Record<string, string>>,
    /** Plugin ids in registration order. */
    readonly plugins: readonly string[],
  ) {}

  /**
   * Builds the map from plugins in registration order. Throws `LANGUAGE_MAP_INVALID` when
   * a plugin id repeats or a plugin's extension table is wrong (see {@link extensionLanguages}).
   */
  static fromPlugins(plugins: readonly LanguagePlugin[], options: LanguageMapOptions = {}): LanguageMap {
    const names = new Map<string, Claim[]>();
    const extensions = new Map<string, Claim[]>();
    const ids: string[] = [];
    for (const plugin of plugins) {
      if (ids.includes(plugin.id)) {
        throw new WalkError(
          WalkErrorCode.LanguageMapInvalid,
          `Plugin ${plugin.id} is registered twice; registration order decides between plugins, so each may appear once.`,
        );
      }
      ids.push(plugin.id);
      for (const [key, language] of extensionLanguages(plugin.manifest, plugin.extensionLanguages, plugin.id)) {
        const target = key.startsWith('.') ? extensions : names;
        const claims = target.get(key) ?? [];
        claims.push({ plugin: plugin.id, language });
        target.set(key, claims);
      }
    }
    return new LanguageMap(names, extensions, { ...options.prefer }, ids);
  }

  /** The plugin for a repo-relative, `/`-separated path, or `undefined` when none claims it. */
  match(path: string): LanguageMatch | undefined {
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (this.names.has(name)) return this.decide('file name', name);
    for (let dot = name.indexOf('.'); dot !== -1; dot = name.indexOf('.', dot + 1)) {
      const key = name.slice(dot).toLowerCase();
      if (this.extensions.has(key)) return this.decide('extension', key);
    }
    return undefined;
  }

  private decide(kind: KeyKind, key: string): LanguageMatch | undefined {
    const cacheKey = `${kind}\0${key}`;
    const cached = this.decided.get(cacheKey);
    if (cached !== undefined) return cached ?? undefined;
    const claims = (kind === 'file name' ? this.names : this.extensions).get(key) ?? [];
    const result = claims.length === 0 ? null : this.choose(kind, key, claims);
    this.decided.set(cacheKey, result);
    return result ?? undefined;
  }

  private choose(kind: KeyKind, key: string, claims: readonly Claim[]): LanguageMatch {
    const candidates = Object.freeze(claims.map((c) => c.plugin));
    let what = `${kind} ${key}`;
    if (kind === 'extension') {
      const shorter = shorterSuffixes(key).filter((s) => this.extensions.has(s));
      if (shorter.length > 0) what += ` (longest claimed, over ${shorter.join(', ')})`;
    }
    const preferred = claims.find((c) => this.prefer[c.language] === c.plugin);
    const winner = preferred ?? claims[0]!;
    const others = candidates.filter((p) => p !== winner.plugin);
    let why: string;
    if (claims.length === 1) {
      why = 'only claimant';
    } else if (preferred) {
      why = `preferred plugin for ${winner.language} (over ${others.join(', ')})`;
    } else {
      why = `registered first (over ${others.join(', ')})`;
      const ignored = [...new Set(claims.map((c) => c.language))]
        .filter((l) => this.prefer[l] !== undefined)
        .map((l) => `${l}: ${this.prefer[l]}`);
      if (ignored.length > 0) why += `; the preference (${ignored.join(', ')}) names no plugin that claims ${key}`;
    }
    return Object.freeze({ language: winner.language, plugin: winner.plugin, candidates, rule: `${what} → ${winner.plugin}: ${why}` });
  }
}

/** `.d.ts` → [`.ts`]; `.a.b.c` → [`.b.c`, `.c`]. */
function shorterSuffixes(extension: string): string[] {
  const out: string[] = [];
  for (let dot = extension.indexOf('.', 1); dot !== -1; dot = extension.indexOf('.', dot + 1)) out.push(extension.slice(dot));
  return out;
}
