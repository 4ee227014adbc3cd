import { DEFAULT_ALLOWED_LICENCES } from '@travsr/registry/licence-policy';
import { ConfigError } from './errors.js';

/** Sandbox tiers a configuration may grant by default (never `unsandboxed`: that is a per-language permission). */
export type DefaultSandboxTier = 'standard' | 'native-ipc' | 'elevated';

/** Log levels, lowest first. */
export type ConfigLogLevel = 'debug' | 'info' | 'warn' | 'error';

/** The type of every configuration key's value. */
export interface ConfigTypes {
  corpus: string;
  'index.maxFileBytes': number;
  'index.workers': number;
  'index.exclude': string[];
  'index.followSymlinks': boolean;
  'index.semantic': boolean;
  'retrieval.synonyms': Record<string, string>;
  'plugins.prefer': Record<string, string>;
  'plugins.options': Record<string, string>;
  'plugins.dirs': string[];
  'plugins.network': Record<string, string>;
  'plugins.cacheMax': number;
  'lang.scipCommand': Record<string, string>;
  'lang.scipTier': Record<string, string>;
  'lang.scipNetwork': Record<string, string>;
  'analyze.deadline': number;
  'analyze.deadlinePerFile': number;
  'analyze.total': number;
  'registry.url': string;
  'registry.trustedKeys': string[];
  'registry.deadline': number;
  'registry.allowedLicences': string[];
  'sandbox.tier': DefaultSandboxTier;
  'log.level': ConfigLogLevel;
  'hook.enabled': boolean;
  'daemon.debounce': number;
  'daemon.maxWatchedDirectories': number;
  'daemon.scanInterval': number;
  'daemon.cacheEntries': number;
  'daemon.cacheMax': number;
  'daemon.toolWorkers': number;
  'daemon.warmPlugins': boolean;
  'daemon.pluginIdle': number;
  'daemon.pluginMemory': number;
  'mcp.oauthIssuer': string;
  'mcp.oauthAudience': string;
  'mcp.oauthResource': string;
  'mcp.oauthJwksUri': string;
  'mcp.oauthGroupsClaim': string;
  'mcp.oauthCorporaClaim': string;
  'mcp.oauthJwksCache': number;
}

/** A configuration key, as written with dots (`index.workers`); in TOML the part before the dot is a table. */
export type ConfigKey = keyof ConfigTypes;

/** How a value is written and checked. Lists are comma-separated in environment variables and on the command line; tables are `a=b,c=d` there. */
export type ConfigValueKind = 'string' | 'integer' | 'boolean' | 'enum' | 'string-list' | 'string-map';

/** Facts about the machine that some defaults depend on; passed in so the resolver stays pure. */
export interface MachineFacts {
  availableParallelism: number;
}

/**
 * Whether a repository's own `.travsr/config.toml` may set a key without the user's consent:
 * `security` keys run code, widen a sandbox or choose where plugins come from, so a repository
 * file sets them only once the user ran `travsr trust` there (see repo-trust.ts); `ordinary`
 * keys change what is indexed and how, within what the user already allows.
 */
export type ConfigTrust = 'security' | 'ordinary';

/** One row of the schema. */
export interface ConfigKeySpec<T> {
  readonly kind: ConfigValueKind;
  /** Every key decides: see ConfigTrust. */
  readonly trust: ConfigTrust;
  /** Environment variable that sets the key. */
  readonly env: string;
  readonly description: string;
  /** The accepted values, as a phrase for error messages ("an integer ≥ 1"). */
  readonly expected: string;
  readonly defaultValue: (machine: MachineFacts) => T;
  /** The default as shown in help and docs. */
  readonly defaultText: string;
  /** `enum`: the accepted values. */
  readonly options?: readonly string[];
  /** `integer`: the smallest accepted value. */
  readonly min?: number;
  /** `string-map`: what a key and a value must look like. */
  readonly mapKey?: { pattern: RegExp; what: string };
  readonly mapValue?: { pattern: RegExp; what: string };
  /** `string-list`: what each entry must look like (default: any non-empty string). */
  readonly itemPattern?: { pattern: RegExp; what: string };
  /** `string-list` of directories: relative entries are resolved (see resolveConfig). */
  readonly paths?: boolean;
}

// Same shapes as the protocol's language and plugin ids; config has no internal dependencies, so they are repeated here.
const LANGUAGE_ID = /^[a-z0-9][a-z0-9+#._-]*$/;
const PLUGIN_ID = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)?$/;
// `<plugin id>.<option>`; `tools` and `cacheDir` are the host's own options (where the declared tools are, the cache).
const PLUGIN_OPTION = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)?\.(?!(?:tools|cacheDir)$)[A-Za-z][A-Za-z0-9_]*$/;

/** Every configuration key: type, default, environment variable, description and what is valid. */
export const CONFIG_SCHEMA: { readonly [K in ConfigKey]: ConfigKeySpec<ConfigTypes[K]> } = {
  corpus: {
    trust: 'ordinary',
    kind: 'string',
    env: 'TRAVSR_CORPUS',
    description: "Corpus name in every node's VName; empty means the indexer derives it",
    expected: 'a string without control characters',
    defaultValue: () => '',
    defaultText: '"" (derived)',
  },
  'index.maxFileBytes': {
    trust: 'ordinary',
    kind: 'integer',
    env: 'TRAVSR_INDEX_MAX_FILE_BYTES',
    description: 'Files larger than this many bytes are skipped, with a reason, when indexing',
    expected: 'an integer ≥ 1 (bytes)',
    min: 1,
    defaultValue: () => 1024 * 1024,
    defaultText: '1048576 (1 MiB)',
  },
  'index.workers': {
    trust: 'ordinary',
    kind: 'integer',
    env: 'TRAVSR_INDEX_WORKERS',
    description: 'Files analyzed in parallel while indexing',
    expected: 'an integer ≥ 1',
    min: 1,
    defaultValue: (m) => Math.max(1, m.availableParallelism),
    defaultText: 'the number of CPUs (os.availableParallelism())',
  },
  'index.exclude': {
    trust: 'ordinary',
    kind: 'string-list',
    env: 'TRAVSR_INDEX_EXCLUDE',
    description: 'Extra gitignore-style patterns of files not to index, on top of .gitignore and .travsrignore',
    expected: 'a list of non-empty gitignore-style patterns',
    defaultValue: () => [],
    defaultText: '[]',
  },
  'index.followSymlinks': {
    // The walker follows only links that stay inside the repository (and out of .git).
    trust: 'ordinary',
    kind: 'boolean',
    env: 'TRAVSR_INDEX_FOLLOW_SYMLINKS',
    description: 'Follow symbolic links while walking the repository',
    expected: 'a boolean (true or false)',
    defaultValue: () => false,
    defaultText: 'false',
  },
  'index.semantic': {
    trust: 'ordinary',
    kind: 'boolean',
    env: 'TRAVSR_INDEX_SEMANTIC',
    description:
      'Run the semantic pass (Phase B: compiler-resolved calls and types) of plugins that have one; false indexes structure only (faster, name-matched calls)',
    expected: 'a boolean (true or false)',
    defaultValue: () => true,
    defaultText: 'true',
  },
  'retrieval.synonyms': {
    // Only widens searches; kept in the store with origin `config` (store/symbol-index.ts).
    trust: 'ordinary',
    kind: 'string-map',
    env: 'TRAVSR_RETRIEVAL_SYNONYMS',
    description:
      'Synonyms every search of the graph uses, both ways (word = "synonym|another synonym"), beside the ones `travsr synonym` keeps; synced into the graph store when a command opens the repository to write (index, hook-run, the daemon)',
    expected: 'a table of word = "synonym|another synonym"',
    mapKey: { pattern: /^[\p{L}\p{N}_ -]+$/u, what: 'a word (letters, digits, _ - and spaces)' },
    mapValue: { pattern: /^[\p{L}\p{N}_ |-]+$/u, what: 'synonyms separated by | (letters, digits, _ - and spaces)' },
    defaultValue: () => ({}),
    defaultText: '{}',
  },
  'plugins.prefer': {
    // Chooses among plugins the user registered (lang.toml); `lang install` reads only the user's value.
    trust: 'ordinary',
    kind: 'string-map',
    env: 'TRAVSR_PLUGINS_PREFER',
    description: 'Which plugin serves a language when several claim it (language = plugin id)',
    expected: 'a table of language = "plugin-id"',
    mapKey: { pattern: LANGUAGE_ID, what: 'a language id (lowercase letters, digits, + # . _ -)' },
    mapValue: { pattern: PLUGIN_ID, what: 'a plugin id (lowercase letters, digits, . _ -, optionally scope/name)' },
    defaultValue: () => ({}),
    defaultText: '{} (registration order)',
  },
  'plugins.options': {
    // Plugins run sandboxed whatever their options say, under the analyze deadlines (security keys).
    trust: 'ordinary',
    kind: 'string-map',
    env: 'TRAVSR_PLUGINS_OPTIONS',
    description:
      'Options passed to plugins in initialize.options, as "plugin-id.option" = "value" (values are strings), e.g. "lang-python.scipPython" = "true" runs the scip-python upgrade of Python Phase B',
    expected: 'a table of "plugin-id.option" = "value"',
    mapKey: { pattern: PLUGIN_OPTION, what: 'a plugin id, a dot and an option name (letters, digits, _; not tools or cacheDir)' },
    mapValue: { pattern: /^[^\x00-\x1f\x7f]*$/, what: 'a string without control characters' },
    defaultValue: () => ({}),
    defaultText: '{}',
  },
  'plugins.dirs': {
    trust: 'security',
    kind: 'string-list',
    env: 'TRAVSR_PLUGINS_DIRS',
    description:
      'Extra plugin directories to register; relative paths are relative to the repository root (repo file), ~/.travsr (user file) or the current directory (flag, environment)',
    expected: 'a list of non-empty directory paths',
    paths: true,
    defaultValue: () => [],
    defaultText: '[]',
  },
  'plugins.network': {
    // Where a plugin's sandbox may connect: the user's to decide, never a repository's alone.
    trust: 'security',
    kind: 'string-map',
    env: 'TRAVSR_PLUGINS_NETWORK',
    description:
      'The hosts an elevated-tier plugin may reach through the allowlist proxy, replacing those its manifest lists (plugin id = "host[:port] …", space-separated; e.g. "lang-java" = "maven.internal.example.com:443" for a Maven mirror); `travsr lang list --json` shows the list in force',
    expected: 'a table of "plugin-id" = "host[:port] host[:port] …"',
    mapKey: { pattern: PLUGIN_ID, what: 'a plugin id (lowercase letters, digits, . _ -, optionally scope/name)' },
    mapValue: {
      pattern: /^(\*\.)?[A-Za-z0-9][A-Za-z0-9.-]*(:[0-9]{1,5})?( +(\*\.)?[A-Za-z0-9][A-Za-z0-9.-]*(:[0-9]{1,5})?)*$/,
      what: 'host[:port] entries separated by spaces',
    },
    defaultValue: () => ({}),
    defaultText: "{} (each manifest's own)",
  },
  'plugins.cacheMax': {
    // Disk the host lets plugins fill on the user's behalf: a repository may not raise it.
    trust: 'security',
    kind: 'integer',
    env: 'TRAVSR_PLUGINS_CACHE_MAX',
    description:
      "MiB a plugin's cache directory (constraints.cache; ~/.travsr/cache/plugins/<id>/<version>/<repo>) may hold; past it the host empties the directory after the plugin's session (0: empty it after every session)",
    expected: 'an integer ≥ 0 (MiB)',
    min: 0,
    defaultValue: () => 512,
    defaultText: '512',
  },
  'lang.scipCommand': {
    // The command runs (in the sandbox of the language's plugin) on the user's behalf.
    trust: 'security',
    kind: 'string-map',
    env: 'TRAVSR_LANG_SCIP_COMMAND',
    description:
      'Bring your own SCIP indexer: language = the command that indexes the repository into {output} (e.g. typescript = "scip-typescript index --output {output}"), run at the repository root in the sandbox of the plugin serving the language, whose Phase B it becomes; {root} is the repository root. Written in TOML also as [lang.<language>.scip] command = "…"',
    expected: 'a table of language = "command … {output} …"',
    mapKey: { pattern: LANGUAGE_ID, what: 'a language id (lowercase letters, digits, + # . _ -)' },
    mapValue: {
      pattern: /^(?=[\s\S]*\{output\})[^\x00-\x1f\x7f]+$/,
      what: 'a command line with {output} where the indexer writes its index',
    },
    defaultValue: () => ({}),
    defaultText: '{}',
  },
  'lang.scipTier': {
    trust: 'security',
    kind: 'string-map',
    env: 'TRAVSR_LANG_SCIP_TIER',
    description:
      'The sandbox tier a brought SCIP indexer (lang.scipCommand) runs in: language = standard, native-ipc or elevated; the plugin serving the language is started in it when it is above the plugin\'s own. Also [lang.<language>.scip] tier = "…"',
    expected: 'a table of language = "standard" | "native-ipc" | "elevated"',
    mapKey: { pattern: LANGUAGE_ID, what: 'a language id (lowercase letters, digits, + # . _ -)' },
    mapValue: { pattern: /^(standard|native-ipc|elevated)$/, what: 'standard, native-ipc or elevated' },
    defaultValue: () => ({}),
    defaultText: '{} (standard)',
  },
  'lang.scipNetwork': {
    trust: 'security',
    kind: 'string-map',
    env: 'TRAVSR_LANG_SCIP_NETWORK',
    description:
      'The hosts a brought SCIP indexer in the elevated tier may reach through the allowlist proxy: language = "host[:port] …" (space-separated). Also [lang.<language>.scip] network = ["…"]',
    expected: 'a table of language = "host[:port] host[:port] …"',
    mapKey: { pattern: LANGUAGE_ID, what: 'a language id (lowercase letters, digits, + # . _ -)' },
    mapValue: { pattern: /^[A-Za-z0-9*.:_ -]*$/, what: 'host[:port] entries separated by spaces' },
    defaultValue: () => ({}),
    defaultText: '{}',
  },
  'analyze.deadline': {
    // A repository could otherwise lift the limits that stop an analyzer its content makes loop.
    trust: 'security',
    kind: 'integer',
    env: 'TRAVSR_ANALYZE_DEADLINE',
    description:
      'Seconds an analyze request may take, plus analyze.deadlinePerFile per file, whatever progress the plugin reports; a plugin past it is stopped and the file it was on is recorded failed',
    expected: 'an integer ≥ 1 (seconds)',
    min: 1,
    defaultValue: () => 120,
    defaultText: '120',
  },
  'analyze.deadlinePerFile': {
    trust: 'security',
    kind: 'integer',
    env: 'TRAVSR_ANALYZE_DEADLINE_PER_FILE',
    description: 'Seconds added to the deadline of an analyze request for each file in it',
    expected: 'an integer ≥ 0 (seconds)',
    min: 0,
    defaultValue: () => 2,
    defaultText: '2',
  },
  'analyze.total': {
    trust: 'security',
    kind: 'integer',
    env: 'TRAVSR_ANALYZE_TOTAL',
    description:
      'Seconds one plugin may spend analyzing in one index run, restarts included; past it the plugin is disabled for the run (0: no limit)',
    expected: 'an integer ≥ 0 (seconds; 0: no limit)',
    min: 0,
    defaultValue: () => 7200,
    defaultText: '7200 (2 hours)',
  },
  'registry.url': {
    trust: 'security',
    kind: 'string',
    env: 'TRAVSR_REGISTRY_URL',
    description:
      'Plugin registry or mirror that `travsr lang` installs from: https://…, http://…, file:///dir or a directory; empty means the built-in registry that ships with Travsr (offline)',
    expected: 'a URL or directory path without control characters',
    defaultValue: () => '',
    defaultText: '"" (the built-in registry)',
  },
  'registry.trustedKeys': {
    trust: 'security',
    kind: 'string-list',
    env: 'TRAVSR_REGISTRY_TRUSTED_KEYS',
    description:
      "Public keys trusted to sign registry.url: key files (.pub from `travsr registry keygen`, or PEM) or inline ed25519:<base64>; the built-in registry's key is always trusted",
    expected: 'a list of key files or ed25519:<base64> keys',
    defaultValue: () => [],
    defaultText: '[]',
  },
  'registry.deadline': {
    // A repository could otherwise lift the limit that stops a registry dripping bytes forever.
    trust: 'security',
    kind: 'integer',
    env: 'TRAVSR_REGISTRY_DEADLINE',
    description:
      'Seconds one registry document may take, retries included, however steadily its bytes come; a download gets this plus 1 s per 16 KiB of its size',
    expected: 'an integer ≥ 1 (seconds)',
    min: 1,
    defaultValue: () => 120,
    defaultText: '120',
  },
  'registry.allowedLicences': {
    // An organisation's policy: a repository's own file must not widen what the user allowed.
    trust: 'security',
    kind: 'string-list',
    env: 'TRAVSR_REGISTRY_ALLOWED_LICENCES',
    description:
      'SPDX licence ids `travsr lang install` accepts for a plugin and for every package its SBOM lists (an expression passes when it holds with these ids); `*` allows any licence, NOASSERTION allows packages that declare none',
    expected: 'a list of SPDX licence ids (MIT, Apache-2.0, …), NOASSERTION or *',
    itemPattern: { pattern: /^(\*|[A-Za-z0-9][A-Za-z0-9.+-]*)$/, what: 'an SPDX licence id (MIT, Apache-2.0), NOASSERTION or *' },
    defaultValue: () => [...DEFAULT_ALLOWED_LICENCES],
    defaultText: `[${DEFAULT_ALLOWED_LICENCES.join(', ')}]`,
  },
  'sandbox.tier': {
    trust: 'security',
    kind: 'enum',
    env: 'TRAVSR_SANDBOX_TIER',
    description:
      'Sandbox tier granted to a plugin by default (unsandboxed is only ever granted per language, by `travsr lang allow-unsandboxed`)',
    expected: 'one of standard, native-ipc, elevated',
    options: ['standard', 'native-ipc', 'elevated'],
    defaultValue: () => 'standard',
    defaultText: 'standard',
  },
  'log.level': {
    trust: 'ordinary',
    kind: 'enum',
    env: 'TRAVSR_LOG_LEVEL',
    description: 'Lowest level of the log lines written to stderr',
    expected: 'one of debug, info, warn, error',
    options: ['debug', 'info', 'warn', 'error'],
    defaultValue: () => 'warn',
    defaultText: 'warn',
  },
  'hook.enabled': {
    trust: 'ordinary',
    kind: 'boolean',
    env: 'TRAVSR_HOOK_ENABLED',
    description: 'Whether the git post-commit hook reindexes (false: the installed hook does nothing)',
    expected: 'a boolean (true or false)',
    defaultValue: () => true,
    defaultText: 'true',
  },
  'daemon.debounce': {
    trust: 'ordinary',
    kind: 'integer',
    env: 'TRAVSR_DAEMON_DEBOUNCE',
    description: 'ms of quiet after a saved file before the daemon updates the graph (edits in a burst become one update)',
    expected: 'an integer ≥ 0 (ms)',
    min: 0,
    defaultValue: () => 40,
    defaultText: '40',
  },
  'daemon.maxWatchedDirectories': {
    trust: 'ordinary',
    kind: 'integer',
    env: 'TRAVSR_DAEMON_MAX_WATCHED_DIRECTORIES',
    description:
      'Directories of one repository the daemon watches with the OS (one watch each); a larger tree, or one past the OS limit, is scanned every daemon.scanInterval instead',
    expected: 'an integer ≥ 0',
    min: 0,
    defaultValue: () => 20_000,
    defaultText: '20000',
  },
  'daemon.scanInterval': {
    trust: 'ordinary',
    kind: 'integer',
    env: 'TRAVSR_DAEMON_SCAN_INTERVAL',
    description: 'ms between two scans of a repository the daemon cannot watch',
    expected: 'an integer ≥ 100 (ms)',
    min: 100,
    defaultValue: () => 2_000,
    defaultText: '2000',
  },
  'daemon.cacheEntries': {
    trust: 'ordinary',
    kind: 'integer',
    env: 'TRAVSR_DAEMON_CACHE_ENTRIES',
    description: "Tool answers the daemon's query cache keeps (0: no cache)",
    expected: 'an integer ≥ 0',
    min: 0,
    defaultValue: () => 2_000,
    defaultText: '2000',
  },
  'daemon.cacheMax': {
    trust: 'ordinary',
    kind: 'integer',
    env: 'TRAVSR_DAEMON_CACHE_MAX',
    description: "MiB the daemon's query cache may hold",
    expected: 'an integer ≥ 0 (MiB)',
    min: 0,
    defaultValue: () => 64,
    defaultText: '64',
  },
  'daemon.toolWorkers': {
    trust: 'ordinary',
    kind: 'integer',
    env: 'TRAVSR_DAEMON_TOOL_WORKERS',
    description: 'Tool calls the daemon runs at once (worker threads, each with the graphs loaded)',
    expected: 'an integer ≥ 1',
    min: 1,
    defaultValue: () => 2,
    defaultText: '2',
  },
  'daemon.warmPlugins': {
    trust: 'ordinary',
    kind: 'boolean',
    env: 'TRAVSR_DAEMON_WARM_PLUGINS',
    description:
      'Whether the daemon keeps a started session of each plugin an update used ready for the next one (an edit then skips the sandbox and plugin start-up; each waiting session holds its process memory)',
    expected: 'a boolean (true or false)',
    defaultValue: () => true,
    defaultText: 'true',
  },
  'daemon.pluginIdle': {
    trust: 'ordinary',
    kind: 'integer',
    env: 'TRAVSR_DAEMON_PLUGIN_IDLE',
    description: 'Seconds a plugin session the daemon keeps ready may wait unused before it is stopped',
    expected: 'an integer ≥ 1 (s)',
    min: 1,
    defaultValue: () => 600,
    defaultText: '600',
  },
  'daemon.pluginMemory': {
    trust: 'ordinary',
    kind: 'integer',
    env: 'TRAVSR_DAEMON_PLUGIN_MEMORY',
    description:
      'MiB of resident memory the plugin sessions the daemon keeps warm between updates may use together (an incremental plugin, e.g. lang-typescript with its programs); a session that would pass it is stopped, and the next update starts a fresh one',
    expected: 'an integer ≥ 64 (MiB)',
    min: 64,
    defaultValue: () => 2048,
    defaultText: '2048',
  },

  // Who may read the graph over `mcp --http`: a repository's file must not choose the issuer
  // whose tokens are accepted, nor how their claims map onto corpora and groups.
  'mcp.oauthIssuer': {
    trust: 'security',
    kind: 'string',
    env: 'TRAVSR_MCP_OAUTH_ISSUER',
    description:
      'OAuth 2.1 / OpenID Connect issuer whose access tokens (JWTs) `mcp --http` accepts beside `travsr mcp token` tokens: its `corpus:<name>` scopes say what a token reads; https:// (http:// only on loopback); empty: OAuth off',
    expected: 'an issuer URL, or empty',
    defaultValue: () => '',
    defaultText: '"" (off)',
  },
  'mcp.oauthAudience': {
    trust: 'security',
    kind: 'string',
    env: 'TRAVSR_MCP_OAUTH_AUDIENCE',
    description: 'The audience (`aud`) an OAuth access token must name; empty: the resource URL (mcp.oauthResource)',
    expected: 'a string without control characters',
    defaultValue: () => '',
    defaultText: '"" (the resource URL)',
  },
  'mcp.oauthResource': {
    trust: 'security',
    kind: 'string',
    env: 'TRAVSR_MCP_OAUTH_RESOURCE',
    description:
      "The URL clients reach the MCP endpoint at (behind a reverse proxy, e.g. https://mcp.example.com/mcp), as the protected-resource metadata gives it; empty: the server's own http://<host>:<port>/mcp",
    expected: 'a URL, or empty',
    defaultValue: () => '',
    defaultText: '"" (the server\'s own URL)',
  },
  'mcp.oauthJwksUri': {
    trust: 'security',
    kind: 'string',
    env: 'TRAVSR_MCP_OAUTH_JWKS_URI',
    description: "Where the issuer publishes its signing keys; empty: the jwks_uri of the issuer's discovery document",
    expected: 'a URL, or empty',
    defaultValue: () => '',
    defaultText: '"" (discovered)',
  },
  'mcp.oauthGroupsClaim': {
    trust: 'security',
    kind: 'string',
    env: 'TRAVSR_MCP_OAUTH_GROUPS_CLAIM',
    description: "The access-token claim that lists the caller's ACL groups (an array of names)",
    expected: 'a claim name',
    defaultValue: () => 'groups',
    defaultText: 'groups',
  },
  'mcp.oauthCorporaClaim': {
    trust: 'security',
    kind: 'string',
    env: 'TRAVSR_MCP_OAUTH_CORPORA_CLAIM',
    description:
      'An access-token claim that lists corpora a token reads (an array of names, or "*"), besides its corpus:<name> scopes; empty: scopes only',
    expected: 'a claim name, or empty',
    defaultValue: () => '',
    defaultText: '"" (scopes only)',
  },
  'mcp.oauthJwksCache': {
    trust: 'security',
    kind: 'integer',
    env: 'TRAVSR_MCP_OAUTH_JWKS_CACHE',
    description: "Seconds the issuer's keys are used before they are fetched again (a key the issuer rotated out stops working by then)",
    expected: 'an integer ≥ 1 (s)',
    min: 1,
    defaultValue: () => 600,
    defaultText: '600',
  },
};

/** Every key, in schema order. */
export const CONFIG_KEYS = Object.keys(CONFIG_SCHEMA) as ConfigKey[];

/** True for a key a repository's own file sets only once the user trusts the repository (see ConfigTrust). */
export function isSecurityKey(key: ConfigKey): boolean {
  return CONFIG_SCHEMA[key].trust === 'security';
}

/** Whether `name` is a configuration key. */
export function isConfigKey(name: string): name is ConfigKey {
  return Object.hasOwn(CONFIG_SCHEMA, name);
}

/** The schema row of `key`, typed loosely for code that handles every key alike. */
export function keySpec(key: ConfigKey): ConfigKeySpec<unknown> {
  return CONFIG_SCHEMA[key];
}

/** The command-line flag name a command uses for `key`: `index.maxFileBytes` → `--index-max-file-bytes`. */
export function configFlagName(key: ConfigKey): string {
  return `--${key.replace(/\./g, '-').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** The result of reading one value: the typed value, or what is wrong with it (a phrase that follows the key name). */
export type ConfigConversion =
  { ok: true; value: unknown } | { ok: false; problem: string; /** The table entry at fault. */ entry?: string };

const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Reads a value parsed from TOML (smol-toml with `integersAsBigInt: true`, so integers are
 * bigints and floats are numbers), or a typed value passed as a flag (`from: 'flag'`, integers as numbers).
 */
export function valueFromData(key: ConfigKey, raw: unknown, from: 'toml' | 'flag' = 'toml'): ConfigConversion {
  const spec = keySpec(key);
  const wrong = (): ConfigConversion => ({ ok: false, problem: `must be ${spec.expected}, got ${describeData(raw)}` });
  switch (spec.kind) {
    case 'string':
      return typeof raw === 'string' ? checkString(spec, raw) : wrong();
    case 'integer': {
      let n: number;
      if (typeof raw === 'bigint') {
        if (raw > BigInt(Number.MAX_SAFE_INTEGER) || raw < BigInt(Number.MIN_SAFE_INTEGER)) return wrong();
        n = Number(raw);
      } else if (from === 'flag' && typeof raw === 'number' && Number.isSafeInteger(raw)) n = raw;
      else return wrong();
      return checkInteger(spec, n, raw);
    }
    case 'boolean':
      return typeof raw === 'boolean' ? { ok: true, value: raw } : wrong();
    case 'enum':
      return typeof raw === 'string' && (spec.options ?? []).includes(raw) ? { ok: true, value: raw } : wrong();
    case 'string-list': {
      if (!Array.isArray(raw)) return wrong();
      const items: string[] = [];
      for (const [i, item] of raw.entries()) {
        if (typeof item !== 'string') return { ok: false, problem: `must be ${spec.expected}; item ${i + 1} is ${describeData(item)}` };
        items.push(item);
      }
      return checkList(spec, items);
    }
    case 'string-map': {
      if (!isTable(raw)) return wrong();
      const map: Record<string, string> = {};
      for (const [k, v] of Object.entries(raw)) {
        if (typeof v !== 'string') return { ok: false, problem: `must be ${spec.expected}; "${k}" is ${describeData(v)}`, entry: k };
        map[k] = v;
      }
      return checkMap(spec, map);
    }
  }
}

/**
 * Reads a value written as text: an environment variable, a command-line argument, `travsr config set`.
 * Booleans: true/false, 1/0, yes/no, on/off. Lists: comma-separated. Tables: `language=plugin,…`.
 */
export function valueFromText(key: ConfigKey, text: string): ConfigConversion {
  const spec = keySpec(key);
  const wrong = (): ConfigConversion => ({ ok: false, problem: `must be ${spec.expected}, got ${JSON.stringify(text)}` });
  const t = text.trim();
  switch (spec.kind) {
    case 'string':
      return checkString(spec, text);
    case 'integer':
      if (!/^\+?\d+(_\d+)*$/.test(t)) return wrong();
      return checkInteger(spec, Number(t.replace(/_/g, '')), text);
    case 'boolean': {
      const b = BOOLEAN_WORDS[t.toLowerCase()];
      return b === undefined ? wrong() : { ok: true, value: b };
    }
    case 'enum':
      return (spec.options ?? []).includes(t) ? { ok: true, value: t } : wrong();
    case 'string-list':
      return checkList(spec, splitList(t));
    case 'string-map': {
      const map: Record<string, string> = {};
      for (const entry of splitList(t)) {
        const eq = entry.indexOf('=');
        if (eq <= 0) return { ok: false, problem: `must be ${spec.expected}, written language=plugin-id,…; got ${JSON.stringify(entry)}` };
        map[entry.slice(0, eq).trim()] = entry.slice(eq + 1).trim();
      }
      return checkMap(spec, map);
    }
  }
}

/** A flag's value: text is read like an environment variable, anything else must already have the key's type. */
export function valueFromFlag(key: ConfigKey, raw: unknown): ConfigConversion {
  return typeof raw === 'string' ? valueFromText(key, raw) : valueFromData(key, raw, 'flag');
}

/** A value written the way TOML writes it (strings quoted, `["a", "b"]`, `{ python = "lang-python" }`), for display. */
export function formatConfigValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(formatConfigValue).join(', ')}]`;
  if (isTable(value)) {
    const entries = Object.entries(value).map(
      ([k, v]) => `${/^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k)} = ${formatConfigValue(v)}`,
    );
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
  }
  return String(value);
}

/** Known keys close to `name` (typos, other casing or separators, a missing table name), best first. */
export function closeConfigKeys(name: string, max = 3): ConfigKey[] {
  const norm = (s: string) => s.toLowerCase().replace(/[-_\s]/g, '');
  const n = norm(name);
  const scored: { key: ConfigKey; score: number }[] = [];
  for (const key of CONFIG_KEYS) {
    const k = norm(key);
    const leaf = norm(key.slice(key.lastIndexOf('.') + 1));
    let score: number;
    if (k === n) score = 0;
    else if (leaf === n || k.startsWith(`${n}.`) || n.startsWith(`${k}.`)) score = 1;
    else score = 1 + Math.min(editDistance(n, k), editDistance(n, leaf));
    if (score <= Math.max(3, Math.floor(n.length / 4))) scored.push({ key, score });
  }
  return scored
    .sort((a, b) => a.score - b.score || a.key.localeCompare(b.key))
    .slice(0, max)
    .map((s) => s.key);
}

/** The error for a key that is not in the schema, naming close keys. */
export function unknownKeyError(name: string): ConfigError {
  const close = closeConfigKeys(name);
  const hint = close.length > 0 ? `did you mean ${close.join(', ')}?` : `known keys: ${CONFIG_KEYS.join(', ')}`;
  return new ConfigError('CONFIG_UNKNOWN_KEY', `unknown config key "${name}"; ${hint} (\`travsr config list\` shows every key)`);
}

/** A TOML table (not an array, not a date). */
export function isTable(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

const BOOLEAN_WORDS: Record<string, boolean> = {
  true: true,
  false: false,
  '1': true,
  '0': false,
  yes: true,
  no: false,
  on: true,
  off: false,
};

function splitList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

function checkString(spec: ConfigKeySpec<unknown>, s: string): ConfigConversion {
  return CONTROL.test(s) ? { ok: false, problem: `must be ${spec.expected}, got ${JSON.stringify(s)}` } : { ok: true, value: s };
}

function checkInteger(spec: ConfigKeySpec<unknown>, n: number, raw: unknown): ConfigConversion {
  if (!Number.isSafeInteger(n) || (spec.min !== undefined && n < spec.min))
    return { ok: false, problem: `must be ${spec.expected}, got ${typeof raw === 'string' ? JSON.stringify(raw) : String(raw)}` };
  return { ok: true, value: n };
}

function checkList(spec: ConfigKeySpec<unknown>, items: string[]): ConfigConversion {
  for (const [i, item] of items.entries())
    if (item.trim().length === 0 || CONTROL.test(item))
      return { ok: false, problem: `must be ${spec.expected}; item ${i + 1} is ${JSON.stringify(item)}` };
  const pattern = spec.itemPattern;
  if (pattern) {
    const i = items.findIndex((item) => !pattern.pattern.test(item.trim()));
    if (i >= 0)
      return { ok: false, problem: `must be ${spec.expected}; item ${i + 1}, ${JSON.stringify(items[i])}, is not ${pattern.what}` };
    return { ok: true, value: items.map((item) => item.trim()) };
  }
  return { ok: true, value: items };
}

function checkMap(spec: ConfigKeySpec<unknown>, map: Record<string, string>): ConfigConversion {
  for (const [k, v] of Object.entries(map)) {
    if (spec.mapKey && !spec.mapKey.pattern.test(k))
      return { ok: false, problem: `must be ${spec.expected}; "${k}" is not ${spec.mapKey.what}`, entry: k };
    if (spec.mapValue && !spec.mapValue.pattern.test(v))
      return { ok: false, problem: `must be ${spec.expected}; ${JSON.stringify(v)} (for "${k}") is not ${spec.mapValue.what}`, entry: k };
  }
  return { ok: true, value: map };
}

/** A parsed TOML value, described for an error message. */
function describeData(v: unknown): string {
  if (typeof v === 'string') return `${JSON.stringify(v)} (a string)`;
  if (typeof v === 'bigint') return `${v} (an integer)`;
  if (typeof v === 'number') return Number.isInteger(v) ? `${v} (a number)` : `${v} (a float)`;
  if (typeof v === 'boolean') return `${v} (a boolean)`;
  if (v instanceof Date) return 'a date';
  if (Array.isArray(v)) return 'an array';
  if (isTable(v)) return 'a table';
  return String(v);
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const sub = (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      cur.push(Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, sub));
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}
