import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/schema/validate.js';
import type { PluginManifest } from '../../src/schema/manifest.js';

const VALID: PluginManifest = {
  id: 'example-python',
  version: '1.2.0',
  description: 'Python definitions, imports and calls',
  languages: ['python'],
  extensions: ['.py', '.pyi', 'SConstruct'],
  entrypoint: { runtime: 'node', path: 'dist/main.js', args: ['--quiet'] },
  protocolVersions: ['1'],
  phases: ['A'],
  constraints: {
    network: false,
    ipc: 'none',
    hostApi: false,
    filesystem: 'repo-read-only',
    resources: { memoryMiB: 512 },
    tools: ['scip-python'],
  },
};

const withChange = (
  change: (m: Record<string, unknown> & { entrypoint: Record<string, unknown>; constraints: Record<string, unknown> }) => void,
): string => {
  const m = structuredClone(VALID) as unknown as Parameters<typeof change>[0];
  change(m);
  return JSON.stringify(m);
};

/** The MANIFEST_INVALID message parseManifest throws for `source`. */
function problem(source: string): string {
  try {
    parseManifest(source);
  } catch (e) {
    expect(e).toMatchObject({ code: 'MANIFEST_INVALID' });
    return (e as Error).message;
  }
  throw new Error('manifest was accepted');
}

describe('parseManifest', () => {
  it('accepts a complete manifest, as a string or as parsed JSON', () => {
    expect(parseManifest(JSON.stringify(VALID))).toEqual(VALID);
    expect(parseManifest(VALID)).toEqual(VALID);
  });

  it('accepts the smallest manifest and a network allowlist', () => {
    const m = withChange((x) => {
      delete x.description;
      delete x.phases;
      x.entrypoint = { runtime: 'exec', path: 'bin/analyzer' };
      x.constraints = { network: { allow: ['registry.npmjs.org', '*.pypi.org:443'] }, ipc: 'posix-shm', hostApi: false };
    });
    expect(parseManifest(m).constraints.network).toEqual({ allow: ['registry.npmjs.org', '*.pypi.org:443'] });
  });

  it('accepts constraints.cache as a boolean and refuses anything else', () => {
    expect(parseManifest(withChange((x) => (x.constraints.cache = true))).constraints.cache).toBe(true);
    expect(parseManifest(VALID).constraints.cache).toBeUndefined();
    expect(problem(withChange((x) => (x.constraints.cache = 'yes')))).toMatch(/cache/);
    expect(problem(withChange((x) => (x.constraints.cache = { dir: '/home' })))).toMatch(/cache/);
  });

  it('says when the file is not JSON, naming the file', () => {
    expect(problem('{ id: 1 }')).toMatch(/^travsr-plugin\.json is not valid JSON: /);
    expect(() => parseManifest('{', 'plugins/x/travsr-plugin.json')).toThrow(/^plugins\/x\/travsr-plugin\.json is not valid JSON/);
  });

  it.each([
    ['a missing required field', (m: Record<string, unknown>) => delete m.id, "must have required property 'id'"],
    ['missing constraints', (m: Record<string, unknown>) => delete m.constraints, "must have required property 'constraints'"],
    ['a version that is not semver', (m: Record<string, unknown>) => (m.version = 'latest'), '/version must match pattern'],
    ['an id with capitals', (m: Record<string, unknown>) => (m.id = 'Example'), '/id must match pattern'],
    ['no languages', (m: Record<string, unknown>) => (m.languages = []), '"languages" must name at least one language'],
    ['no extensions', (m: Record<string, unknown>) => (m.extensions = []), '"extensions" must name at least one extension'],
    [
      'a model section on an analyzer',
      (m: Record<string, unknown>) => (m.model = { task: 'embed', dimensions: 8, maxTokens: 16, licence: 'MIT' }),
      '"model" belongs to model plugins only',
    ],
    [
      'a duplicated extension',
      (m: Record<string, unknown>) => (m.extensions = ['.py', '.py']),
      '/extensions must NOT have duplicate items',
    ],
    ['an extension with a slash', (m: Record<string, unknown>) => (m.extensions = ['src/.py']), '/extensions/0 must match pattern'],
    ['an unknown member', (m: Record<string, unknown>) => (m.permissions = ['all']), 'must NOT have additional properties (permissions)'],
    ['an unknown runtime', (m: { entrypoint: Record<string, unknown> }) => (m.entrypoint.runtime = 'python'), '/entrypoint/runtime'],
    ['network: true', (m: { constraints: Record<string, unknown> }) => (m.constraints.network = true), '/constraints/network'],
    [
      'an empty network allowlist',
      (m: { constraints: Record<string, unknown> }) => (m.constraints.network = { allow: [] }),
      '/constraints/network/allow must NOT have fewer than 1 items',
    ],
    [
      'an allowlist entry with a path',
      (m: { constraints: Record<string, unknown> }) => (m.constraints.network = { allow: ['example.com/x'] }),
      '/constraints/network/allow/0 must match pattern',
    ],
    ['an unknown ipc', (m: { constraints: Record<string, unknown> }) => (m.constraints.ipc = 'sysv'), '/constraints/ipc'],
    [
      'a writable filesystem',
      (m: { constraints: Record<string, unknown> }) => (m.constraints.filesystem = 'repo-read-write'),
      '/constraints/filesystem',
    ],
    [
      'memory below the minimum',
      (m: { constraints: Record<string, unknown> }) => (m.constraints.resources = { memoryMiB: 1 }),
      '/constraints/resources/memoryMiB must be >= 16',
    ],
  ])('refuses %s, naming the field', (_what, change, expected) => {
    expect(problem(withChange(change as never))).toContain(expected);
  });

  it.each([
    ['a parent-directory traversal', '../x'],
    ['a traversal in the middle', 'dist/../../x'],
    ['a bare ..', '..'],
    ['an absolute path', '/usr/bin/python3'],
    ['a Windows drive path', 'C:\\tools\\x.exe'],
    ['a Windows drive-relative path', 'c:x.exe'],
    ['a backslash traversal', '..\\x'],
    ['an empty path', ''],
  ])('refuses an entrypoint path with %s', (_what, path) => {
    expect(problem(withChange((m) => (m.entrypoint.path = path)))).toContain('/entrypoint/path');
  });

  it.each(['main.js', './dist/main.js', 'bin/..hidden', 'a..b/c'])('accepts the entrypoint path %s', (path) => {
    expect(parseManifest(withChange((m) => (m.entrypoint.path = path))).entrypoint.path).toBe(path);
  });
});

describe('parseManifest: a model plugin', () => {
  const MODEL = {
    id: 'code-minilm',
    version: '1.0.0',
    kind: 'model',
    languages: [],
    extensions: [],
    entrypoint: { runtime: 'node', path: 'runner/runner.mjs' },
    protocolVersions: ['1'],
    constraints: { network: false, ipc: 'none', hostApi: false },
    model: { task: 'embed', dimensions: 384, maxTokens: 256, licence: 'Apache-2.0' },
  };
  const variant = (change: (m: Record<string, unknown> & { model: Record<string, unknown> }) => void): string => {
    const m = structuredClone(MODEL) as unknown as Parameters<typeof change>[0];
    change(m);
    return JSON.stringify(m);
  };

  it('accepts an embedder and a cross-encoder, which analyze no language', () => {
    expect(parseManifest(JSON.stringify(MODEL)).model).toEqual(MODEL.model);
    const rerank = parseManifest(variant((m) => (m.model = { task: 'rerank', maxTokens: 512, licence: 'MIT' })));
    expect(rerank.model?.task).toBe('rerank');
    expect(rerank.languages).toEqual([]);
  });

  it.each([
    ['no model section', (m: Record<string, unknown>) => delete m.model, 'must say what it serves in "model"'],
    ['a language', (m: Record<string, unknown>) => (m.languages = ['python']), '"languages" and "extensions" must be empty'],
    ['an extension', (m: Record<string, unknown>) => (m.extensions = ['.py']), '"languages" and "extensions" must be empty'],
    ['analysis phases', (m: Record<string, unknown>) => (m.phases = ['A']), 'has no analysis "phases"'],
    [
      'an embedder without dimensions',
      (m: { model: Record<string, unknown> }) => delete m.model.dimensions,
      'must give its vectors\' "dimensions"',
    ],
    ['an unknown task', (m: { model: Record<string, unknown> }) => (m.model.task = 'classify'), '/model/task'],
    ['no licence', (m: { model: Record<string, unknown> }) => delete m.model.licence, "must have required property 'licence'"],
    [
      'network access',
      (m: { constraints: Record<string, unknown> }) =>
        (m.constraints = { network: { allow: ['example.com'] }, ipc: 'none', hostApi: false }),
      'runs in the standard tier',
    ],
  ])('refuses %s', (_what, change, message) => {
    expect(problem(variant(change as never))).toContain(message);
  });
});
