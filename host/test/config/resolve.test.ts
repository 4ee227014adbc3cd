import { describe, expect, it } from 'vitest';
import { DEFAULT_ALLOWED_LICENCES } from '@travsr/registry/licence-policy';
import { CONFIG_KEYS, isSecurityKey, resolveConfig, type ConfigInputs } from '../../src/config/index.js';

const REPO = '/work/r/.travsr/config.toml';
const USER = '/home/u/.travsr/config.toml';
const machine = { availableParallelism: 6 };
const resolve = (inputs: ConfigInputs) => resolveConfig({ machine, ...inputs });
const repoFile = (text: string) => ({ path: REPO, text });
const userFile = (text: string) => ({ path: USER, text });

describe('resolveConfig precedence', () => {
  const all = {
    flags: { 'index.workers': 5 },
    env: { TRAVSR_INDEX_WORKERS: '4' },
    repoFile: repoFile('[index]\nworkers = 3\n'),
    userFile: userFile('[index]\nworkers = 2\n'),
  };

  it('a flag beats an environment variable', () => {
    expect(resolve(all).values['index.workers']).toEqual({ value: 5, source: 'flag', origin: '--index-workers' });
  });
  it('an environment variable beats the repository file', () => {
    expect(resolve({ ...all, flags: {} }).values['index.workers']).toEqual({ value: 4, source: 'env', origin: 'TRAVSR_INDEX_WORKERS' });
  });
  it('the repository file beats the user file', () => {
    expect(resolve({ ...all, flags: {}, env: {} }).values['index.workers']).toEqual({ value: 3, source: 'repo', origin: `${REPO}:2` });
  });
  it('the user file beats the default', () => {
    expect(resolve({ userFile: all.userFile }).values['index.workers']).toEqual({ value: 2, source: 'user', origin: `${USER}:2` });
  });
  it('without any layer, the default (which may depend on the machine)', () => {
    expect(resolve({}).values['index.workers']).toEqual({ value: 6, source: 'default' });
    expect(resolveConfig({ machine: { availableParallelism: 32 } }).values['index.workers'].value).toBe(32);
  });
  it('each key is resolved on its own, and an empty environment variable counts as unset', () => {
    const cfg = resolve({
      env: { TRAVSR_LOG_LEVEL: 'debug', TRAVSR_CORPUS: '' },
      repoFile: repoFile('corpus = "acme"\n[log]\nlevel = "info"\n'),
      userFile: userFile('[hook]\nenabled = false\n'),
    });
    expect(cfg.values['log.level']).toEqual({ value: 'debug', source: 'env', origin: 'TRAVSR_LOG_LEVEL' });
    expect(cfg.values.corpus).toEqual({ value: 'acme', source: 'repo', origin: `${REPO}:1` });
    expect(cfg.values['hook.enabled']).toEqual({ value: false, source: 'user', origin: `${USER}:2` });
    expect(cfg.values['sandbox.tier']).toEqual({ value: 'standard', source: 'default' });
  });
  it('lists and tables from a higher layer replace the lower one whole', () => {
    const cfg = resolve({
      repoFile: repoFile('[plugins.prefer]\ngo = "lang-go"\n'),
      userFile: userFile('[plugins.prefer]\npython = "lang-python"\n[index]\nexclude = ["a"]\n'),
      env: { TRAVSR_INDEX_EXCLUDE: 'b' },
    });
    expect(cfg.values['plugins.prefer'].value).toEqual({ go: 'lang-go' });
    expect(cfg.values['index.exclude'].value).toEqual(['b']);
  });
  it('is pure: the same inputs give the same result', () => {
    expect(resolve(all)).toEqual(resolve(all));
  });
});

describe('resolveConfig defaults and types', () => {
  it('gives every key of the schema a value, with the documented defaults', () => {
    const v = resolve({}).values;
    expect(Object.keys(v)).toEqual(CONFIG_KEYS);
    expect(Object.fromEntries(CONFIG_KEYS.map((k) => [k, v[k].value]))).toEqual({
      corpus: '',
      'index.maxFileBytes': 1048576,
      'index.workers': 6,
      'index.exclude': [],
      'index.followSymlinks': false,
      'index.semantic': true,
      'retrieval.synonyms': {},
      'plugins.prefer': {},
      'plugins.options': {},
      'plugins.dirs': [],
      'plugins.network': {},
      'plugins.cacheMax': 512,
      'lang.scipCommand': {},
      'lang.scipTier': {},
      'lang.scipNetwork': {},
      'analyze.deadline': 120,
      'analyze.deadlinePerFile': 2,
      'analyze.total': 7200,
      'registry.url': '',
      'registry.trustedKeys': [],
      'registry.deadline': 120,
      'registry.allowedLicences': [...DEFAULT_ALLOWED_LICENCES],
      'sandbox.tier': 'standard',
      'log.level': 'warn',
      'hook.enabled': true,
      'daemon.debounce': 40,
      'daemon.maxWatchedDirectories': 20000,
      'daemon.scanInterval': 2000,
      'daemon.cacheEntries': 2000,
      'daemon.cacheMax': 64,
      'daemon.toolWorkers': 2,
      'daemon.warmPlugins': true,
      'daemon.pluginIdle': 600,
      'daemon.pluginMemory': 2048,
      'mcp.oauthIssuer': '',
      'mcp.oauthAudience': '',
      'mcp.oauthResource': '',
      'mcp.oauthJwksUri': '',
      'mcp.oauthGroupsClaim': 'groups',
      'mcp.oauthCorporaClaim': '',
      'mcp.oauthJwksCache': 600,
    });
  });

  it('reads every type from TOML, with the line of each key (dotted keys, inline tables, multi-line arrays)', () => {
    const text = [
      '# project settings', //                             1
      'corpus = "github.com/acme/app" # the VName corpus', // 2
      'log.level = "error"', //                             3
      '[index]', //                                         4
      'followSymlinks = true', //                           5
      'exclude = [', //                                     6
      '  "vendor/**", # third party', //                    7
      "  '*.gen.ts',", //                                   8
      ']', //                                               9
      'maxFileBytes = 2_000_000', //                       10
      '[plugins]', //                                      11
      'prefer = { python = "lang-python", "c++" = "acme/lang-cpp" }', // 12
      'dirs = ["tools/plugins", "/opt/travsr"]', //        13
      '[sandbox]', //                                      14
      'tier = "native-ipc"', //                            15
    ].join('\n');
    const v = resolve({ repoFile: repoFile(text), repoTrust: 'trusted' }).values;
    expect(v.corpus).toEqual({ value: 'github.com/acme/app', source: 'repo', origin: `${REPO}:2` });
    expect(v['index.maxFileBytes']).toEqual({ value: 2_000_000, source: 'repo', origin: `${REPO}:10` });
    expect(v['index.followSymlinks']).toEqual({ value: true, source: 'repo', origin: `${REPO}:5` });
    expect(v['index.exclude']).toEqual({ value: ['vendor/**', '*.gen.ts'], source: 'repo', origin: `${REPO}:6` });
    expect(v['plugins.prefer']).toEqual({ value: { python: 'lang-python', 'c++': 'acme/lang-cpp' }, source: 'repo', origin: `${REPO}:12` });
    // Relative plugin directories in the repository file are relative to the repository root.
    expect(v['plugins.dirs']).toEqual({ value: ['/work/r/tools/plugins', '/opt/travsr'], source: 'repo', origin: `${REPO}:13` });
    expect(v['sandbox.tier']).toEqual({ value: 'native-ipc', source: 'repo', origin: `${REPO}:15` });
    expect(v['log.level']).toEqual({ value: 'error', source: 'repo', origin: `${REPO}:3` });
  });

  it('reads a brought SCIP indexer from [lang.<language>.scip] tables, as the lang.scip* keys', () => {
    const text = [
      '[lang.typescript.scip]',
      'command = "scip-typescript index --output {output}"',
      'tier = "native-ipc"',
      '[lang.java.scip]',
      'command = "scip-java index --output {output}"',
      'tier = "elevated"',
      'network = ["repo1.maven.org", "plugins.gradle.org:443"]',
      'jobs = 4',
      '[lang]',
      'scipCommand = { python = "scip-python index --output {output}" }',
    ].join('\n');
    const cfg = resolve({ userFile: { path: '/home/u/.travsr/config.toml', text } });
    expect(cfg.values['lang.scipCommand'].value).toEqual({
      python: 'scip-python index --output {output}',
      typescript: 'scip-typescript index --output {output}',
      java: 'scip-java index --output {output}',
    });
    expect(cfg.values['lang.scipTier'].value).toEqual({ typescript: 'native-ipc', java: 'elevated' });
    expect(cfg.values['lang.scipNetwork'].value).toEqual({ java: 'repo1.maven.org plugins.gradle.org:443' });
    expect(cfg.warnings.map((w) => w.key)).toEqual(['lang.java.scip.jobs']);
  });

  it('refuses a brought indexer without {output}, or in a tier that does not exist', () => {
    expect(() => resolve({ userFile: { path: '/u/config.toml', text: '[lang.ruby.scip]\ncommand = "scip-ruby ."\n' } })).toThrow(
      /lang\.scipCommand must be .*\{output\}/,
    );
    expect(() =>
      resolve({
        userFile: { path: '/u/config.toml', text: '[lang.ruby.scip]\ncommand = "scip-ruby --index-file {output}"\ntier = "root"\n' },
      }),
    ).toThrow(/lang\.scipTier must be/);
  });

  it('a repository file brings an indexer only once trusted: it runs a command', () => {
    const text = '[lang.ruby.scip]\ncommand = "scip-ruby --index-file {output}"\n';
    expect(resolve({ repoFile: repoFile(text) }).ignored.map((i) => i.key)).toEqual(['lang.scipCommand']);
    expect(resolve({ repoFile: repoFile(text), repoTrust: 'trusted' }).values['lang.scipCommand'].value).toEqual({
      ruby: 'scip-ruby --index-file {output}',
    });
  });

  it('reads every type from environment variables (lists comma-separated, tables language=plugin)', () => {
    const v = resolve({
      env: {
        TRAVSR_CORPUS: 'acme',
        TRAVSR_INDEX_MAX_FILE_BYTES: '4096',
        TRAVSR_INDEX_WORKERS: '3',
        TRAVSR_INDEX_EXCLUDE: 'vendor/**, *.min.js,',
        TRAVSR_INDEX_FOLLOW_SYMLINKS: 'yes',
        TRAVSR_INDEX_SEMANTIC: 'false',
        TRAVSR_RETRIEVAL_SYNONYMS: 'cfg=config|configuration, k8s=kubernetes client',
        TRAVSR_PLUGINS_PREFER: 'python=lang-python, go=lang-go',
        TRAVSR_PLUGINS_OPTIONS: 'lang-python.scipPython=true',
        TRAVSR_PLUGINS_DIRS: 'rel,/abs,~/mine',
        TRAVSR_PLUGINS_NETWORK: 'lang-java=maven.internal.example.com:443 *.example.org',
        TRAVSR_PLUGINS_CACHE_MAX: '64',
        TRAVSR_LANG_SCIP_COMMAND: 'typescript=scip-typescript index --output {output}',
        TRAVSR_LANG_SCIP_TIER: 'typescript=native-ipc',
        TRAVSR_LANG_SCIP_NETWORK: 'java=repo1.maven.org plugins.gradle.org:443',
        TRAVSR_ANALYZE_DEADLINE: '60',
        TRAVSR_ANALYZE_DEADLINE_PER_FILE: '0',
        TRAVSR_ANALYZE_TOTAL: '600',
        TRAVSR_REGISTRY_URL: 'https://plugins.example.org/',
        TRAVSR_REGISTRY_TRUSTED_KEYS: '/etc/travsr/registry.pub,ed25519:AAAA',
        TRAVSR_REGISTRY_DEADLINE: '30',
        TRAVSR_REGISTRY_ALLOWED_LICENCES: 'MIT, Apache-2.0',
        TRAVSR_SANDBOX_TIER: 'elevated',
        TRAVSR_LOG_LEVEL: 'info',
        TRAVSR_HOOK_ENABLED: 'off',
        TRAVSR_DAEMON_DEBOUNCE: '100',
        TRAVSR_DAEMON_MAX_WATCHED_DIRECTORIES: '50',
        TRAVSR_DAEMON_SCAN_INTERVAL: '500',
        TRAVSR_DAEMON_CACHE_ENTRIES: '10',
        TRAVSR_DAEMON_CACHE_MAX: '8',
        TRAVSR_DAEMON_TOOL_WORKERS: '1',
        TRAVSR_DAEMON_WARM_PLUGINS: 'false',
        TRAVSR_DAEMON_PLUGIN_IDLE: '30',
        TRAVSR_DAEMON_PLUGIN_MEMORY: '512',
        TRAVSR_MCP_OAUTH_ISSUER: 'https://idp.example.com',
        TRAVSR_MCP_OAUTH_AUDIENCE: 'travsr-api',
        TRAVSR_MCP_OAUTH_RESOURCE: 'https://mcp.example.com/mcp',
        TRAVSR_MCP_OAUTH_JWKS_URI: 'https://idp.example.com/keys',
        TRAVSR_MCP_OAUTH_GROUPS_CLAIM: 'roles',
        TRAVSR_MCP_OAUTH_CORPORA_CLAIM: 'travsr_corpora',
        TRAVSR_MCP_OAUTH_JWKS_CACHE: '60',
      },
      cwd: '/here',
      home: '/home/u',
    }).values;
    expect(Object.fromEntries(CONFIG_KEYS.map((k) => [k, v[k].value]))).toEqual({
      corpus: 'acme',
      'index.maxFileBytes': 4096,
      'index.workers': 3,
      'index.exclude': ['vendor/**', '*.min.js'],
      'index.followSymlinks': true,
      'index.semantic': false,
      'retrieval.synonyms': { cfg: 'config|configuration', k8s: 'kubernetes client' },
      'plugins.prefer': { python: 'lang-python', go: 'lang-go' },
      'plugins.options': { 'lang-python.scipPython': 'true' },
      'plugins.dirs': ['/here/rel', '/abs', '/home/u/mine'],
      'plugins.network': { 'lang-java': 'maven.internal.example.com:443 *.example.org' },
      'plugins.cacheMax': 64,
      'lang.scipCommand': { typescript: 'scip-typescript index --output {output}' },
      'lang.scipTier': { typescript: 'native-ipc' },
      'lang.scipNetwork': { java: 'repo1.maven.org plugins.gradle.org:443' },
      'analyze.deadline': 60,
      'analyze.deadlinePerFile': 0,
      'analyze.total': 600,
      'registry.url': 'https://plugins.example.org/',
      'registry.trustedKeys': ['/etc/travsr/registry.pub', 'ed25519:AAAA'],
      'registry.deadline': 30,
      'registry.allowedLicences': ['MIT', 'Apache-2.0'],
      'sandbox.tier': 'elevated',
      'log.level': 'info',
      'hook.enabled': false,
      'daemon.debounce': 100,
      'daemon.maxWatchedDirectories': 50,
      'daemon.scanInterval': 500,
      'daemon.cacheEntries': 10,
      'daemon.cacheMax': 8,
      'daemon.toolWorkers': 1,
      'daemon.warmPlugins': false,
      'daemon.pluginIdle': 30,
      'daemon.pluginMemory': 512,
      'mcp.oauthIssuer': 'https://idp.example.com',
      'mcp.oauthAudience': 'travsr-api',
      'mcp.oauthResource': 'https://mcp.example.com/mcp',
      'mcp.oauthJwksUri': 'https://idp.example.com/keys',
      'mcp.oauthGroupsClaim': 'roles',
      'mcp.oauthCorporaClaim': 'travsr_corpora',
      'mcp.oauthJwksCache': 60,
    });
    for (const k of CONFIG_KEYS) expect(v[k].source).toBe('env');
  });

  it('takes typed flag values and text flag values', () => {
    const v = resolve({
      flags: { 'index.followSymlinks': true, 'index.exclude': ['x/**'], 'log.level': 'debug', 'hook.enabled': 'false', corpus: undefined },
    }).values;
    expect(v['index.followSymlinks']).toEqual({ value: true, source: 'flag', origin: '--index-follow-symlinks' });
    expect(v['index.exclude'].value).toEqual(['x/**']);
    expect(v['hook.enabled']).toEqual({ value: false, source: 'flag', origin: '--hook-enabled' });
    expect(v.corpus.source).toBe('default');
  });

  it('resolves relative plugin directories of the user file against ~/.travsr', () => {
    const v = resolve({ userFile: userFile('[plugins]\ndirs = ["mine", "~/elsewhere"]\n'), home: '/home/u' }).values;
    expect(v['plugins.dirs'].value).toEqual(['/home/u/.travsr/mine', '/home/u/elsewhere']);
  });
});

describe('resolveConfig errors and warnings', () => {
  const invalid = (text: string) => () => resolve({ repoFile: repoFile(text) });

  it('a wrong type in a file names file:line, the key and the expected type', () => {
    expect(invalid('corpus = "x"\n\n[index]\nworkers = "four"\n')).toThrow(
      expect.objectContaining({
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(
          /^\/work\/r\/\.travsr\/config\.toml:4: index\.workers must be an integer ≥ 1, got "four" \(a string\); fix the file or run `travsr config unset index\.workers`$/,
        ),
      }),
    );
  });

  it.each([
    ['[index]\nworkers = 0', /:2: index\.workers must be an integer ≥ 1, got 0/],
    ['[index]\nmaxFileBytes = 1.5', /:2: index\.maxFileBytes must be an integer ≥ 1 \(bytes\), got 1\.5 \(a float\)/],
    ['[index]\nmaxFileBytes = 99999999999999999999', /:2: index\.maxFileBytes must be an integer/],
    ['[index]\nfollowSymlinks = "yes"', /:2: index\.followSymlinks must be a boolean \(true or false\), got "yes"/],
    [
      '[index]\nexclude = "vendor/**"',
      /:2: index\.exclude must be a list of non-empty gitignore-style patterns, got "vendor\/\*\*" \(a string\)/,
    ],
    ['[index]\nexclude = ["a", 3]', /:2: index\.exclude must be a list .*; item 2 is 3 \(an integer\)/],
    ['[index]\nexclude = ["a", ""]', /:2: index\.exclude must be a list .*; item 2 is ""/],
    ['[sandbox]\ntier = "unsandboxed"', /:2: sandbox\.tier must be one of standard, native-ipc, elevated, got "unsandboxed"/],
    ['[log]\nlevel = "verbose"', /:2: log\.level must be one of debug, info, warn, error/],
    ['[hook]\nenabled = 1', /:2: hook\.enabled must be a boolean \(true or false\), got 1 \(an integer\)/],
    ['corpus = ["a"]', /:1: corpus must be a string without control characters, got an array/],
    ['[plugins.prefer]\npython = "lang-python"\n"Go Lang" = "lang-go"', /:3: plugins\.prefer must be .*; "Go Lang" is not a language id/],
    ['[plugins.prefer]\npython = "Lang Python!"', /:2: plugins\.prefer must be .*; "Lang Python!" \(for "python"\) is not a plugin id/],
    ['[plugins]\nprefer = "lang-python"', /:2: plugins\.prefer must be a table of language = "plugin-id", got "lang-python"/],
    ['index = 4', /:1: index must be a table \(\[index\]\), not a single value/],
  ])('refuses %j', (text, message) => {
    expect(invalid(text)).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID', message: expect.stringMatching(message) }));
  });

  it('a TOML syntax error names file:line:col', () => {
    expect(invalid('corpus = "x"\n[index\nworkers = 2\n')).toThrow(
      expect.objectContaining({
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(/^\/work\/r\/\.travsr\/config\.toml:2:7: TOML syntax error: /),
      }),
    );
    expect(() => resolve({ userFile: userFile('a = 1\na = 2\n') })).toThrow(
      /^\/home\/u\/\.travsr\/config\.toml:2:1: TOML syntax error: .*redefine/,
    );
  });

  it('the user file fix hint points at --global', () => {
    expect(() => resolve({ userFile: userFile('[log]\nlevel = 3\n') })).toThrow(
      /:2: log\.level .*`travsr config unset log\.level --global`/,
    );
  });

  it('an invalid layer is an error even when a higher layer overrides the key', () => {
    expect(() => resolve({ env: { TRAVSR_INDEX_WORKERS: '2' }, repoFile: repoFile('[index]\nworkers = -1\n') })).toThrow(
      /config\.toml:2: index\.workers/,
    );
  });

  it('a wrong environment variable or flag is named', () => {
    expect(() => resolve({ env: { TRAVSR_INDEX_WORKERS: 'many' } })).toThrow(
      expect.objectContaining({
        code: 'CONFIG_INVALID',
        message:
          'environment variable TRAVSR_INDEX_WORKERS: index.workers must be an integer ≥ 1, got "many"; fix or unset TRAVSR_INDEX_WORKERS',
      }),
    );
    expect(() => resolve({ env: { TRAVSR_HOOK_ENABLED: 'maybe' } })).toThrow(/TRAVSR_HOOK_ENABLED: hook\.enabled must be a boolean/);
    expect(() => resolve({ env: { TRAVSR_PLUGINS_PREFER: 'python' } })).toThrow(/TRAVSR_PLUGINS_PREFER: .*language=plugin-id/);
    expect(() => resolve({ flags: { 'index.maxFileBytes': 2.5 } })).toThrow(
      expect.objectContaining({
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(/^flag --index-max-file-bytes: index\.maxFileBytes must be an integer/),
      }),
    );
    expect(() => resolve({ flags: { 'sandbox.tier': 'unsandboxed' } })).toThrow(/^flag --sandbox-tier: /);
    expect(() => resolve({ flags: { 'index.worker': 2 } as never })).toThrow(
      expect.objectContaining({ code: 'CONFIG_UNKNOWN_KEY', message: expect.stringMatching(/did you mean index\.workers\?/) }),
    );
  });

  it('unknown keys in a file are warnings with file:line and a close name, and the rest still resolves', () => {
    const cfg = resolve({
      repoFile: repoFile('[index]\nworker = 4\nmaxFileBytes = 10\n\n[telemetry]\nenabled = true\n'),
      userFile: userFile('log_level = "debug"\n'),
    });
    expect(cfg.values['index.maxFileBytes'].value).toBe(10);
    expect(cfg.values['index.workers'].source).toBe('default');
    expect(cfg.warnings).toEqual([
      {
        code: 'CONFIG_UNKNOWN_KEY',
        key: 'log_level',
        origin: `${USER}:1`,
        message: `${USER}:1: unknown key "log_level" is ignored (did you mean log.level?)`,
      },
      {
        code: 'CONFIG_UNKNOWN_KEY',
        key: 'index.worker',
        origin: `${REPO}:2`,
        message: `${REPO}:2: unknown key "index.worker" is ignored (did you mean index.workers?)`,
      },
      { code: 'CONFIG_UNKNOWN_KEY', key: 'telemetry', origin: `${REPO}:5`, message: `${REPO}:5: unknown key "telemetry" is ignored` },
    ]);
  });

  it('a quoted key containing a dot is not mistaken for a dotted key', () => {
    const cfg = resolve({ repoFile: repoFile('"index.workers" = 3\n') });
    expect(cfg.values['index.workers'].source).toBe('default');
    expect(cfg.warnings.map((w) => w.origin)).toEqual([`${REPO}:1`]);
  });
});

describe('security keys of a repository file', () => {
  const text = [
    '[index]',
    'workers = 2',
    '[plugins]',
    'dirs = ["tools/p"]',
    '[registry]',
    'url = "https://evil.example"',
    '[sandbox]',
    'tier = "elevated"',
  ].join('\n');
  const user = userFile('[sandbox]\ntier = "native-ipc"\n');

  it('every key decides whether a repository file may set it on its own', () => {
    const security = CONFIG_KEYS.filter(isSecurityKey);
    for (const key of ['plugins.dirs', 'registry.url', 'registry.trustedKeys', 'sandbox.tier'] as const) expect(security).toContain(key);
    for (const key of ['corpus', 'index.workers', 'index.exclude', 'log.level', 'plugins.prefer'] as const)
      expect(security).not.toContain(key);
  });

  it('untrusted (the default): ignored with file:line and the way out, ordinary keys still count, lower layers fill in', () => {
    const cfg = resolve({ repoFile: repoFile(text), userFile: user });
    expect(cfg.values['index.workers']).toEqual({ value: 2, source: 'repo', origin: `${REPO}:2` });
    expect(cfg.values['plugins.dirs']).toEqual({ value: [], source: 'default' });
    expect(cfg.values['registry.url']).toEqual({ value: '', source: 'default' });
    expect(cfg.values['sandbox.tier']).toMatchObject({ value: 'native-ipc', source: 'user' });
    expect(cfg.ignored.map((i) => [i.key, i.origin, i.reason])).toEqual([
      ['plugins.dirs', `${REPO}:4`, 'untrusted'],
      ['registry.url', `${REPO}:6`, 'untrusted'],
      ['sandbox.tier', `${REPO}:8`, 'untrusted'],
    ]);
    expect(cfg.ignored[0]?.value).toEqual(['/work/r/tools/p']);
    expect(cfg.ignored[1]?.message).toMatch(
      new RegExp(`^${REPO}:6: registry\\.url is ignored: this repository is not trusted.*run \`travsr trust\``),
    );
  });

  it('changed since trusted: ignored, and the message says the trust was revoked', () => {
    const cfg = resolve({ repoFile: repoFile(text), repoTrust: 'changed' });
    expect(cfg.values['sandbox.tier'].source).toBe('default');
    expect(cfg.ignored.every((i) => i.reason === 'changed')).toBe(true);
    expect(cfg.ignored[0]?.message).toContain(`${REPO} changed since you trusted it, so the trust was revoked`);
  });

  it('trusted: honoured like any other key, nothing ignored', () => {
    const cfg = resolve({ repoFile: repoFile(text), userFile: user, repoTrust: 'trusted' });
    expect(cfg.values['sandbox.tier']).toEqual({ value: 'elevated', source: 'repo', origin: `${REPO}:8` });
    expect(cfg.values['plugins.dirs'].value).toEqual(['/work/r/tools/p']);
    expect(cfg.ignored).toEqual([]);
  });

  it("environment variables and flags are the user's own: honoured whatever the trust", () => {
    const cfg = resolve({ repoFile: repoFile(text), env: { TRAVSR_SANDBOX_TIER: 'elevated' }, flags: { 'plugins.dirs': '/mine' } });
    expect(cfg.values['sandbox.tier']).toMatchObject({ value: 'elevated', source: 'env' });
    expect(cfg.values['plugins.dirs']).toMatchObject({ value: ['/mine'], source: 'flag' });
  });

  it('an ignored key is still validated: a broken value is an error, not silently dropped', () => {
    expect(() => resolve({ repoFile: repoFile('[sandbox]\ntier = "unsandboxed"\n') })).toThrow(
      /config\.toml:2: sandbox\.tier must be one of/,
    );
  });
});
