// Project layouts Phase B must resolve across: project references between workspace packages
// (imports through a package's `exports` landing on the referenced project's sources), and
// JavaScript with no tsconfig at all (the inferred project: allowJs, checkJs off).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFixtures } from './helpers/fixtures.js';
import { edgeLines, PluginDriver } from './helpers/plugin-driver.js';

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
const packageOptions = { composite: true, strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', rootDir: 'src', outDir: 'dist' };

const files: Record<string, string> = {
  'tsconfig.json': json({ files: [], references: [{ path: 'packages/core' }, { path: 'packages/app' }] }),
  'packages/core/package.json': json({
    name: '@acme/core',
    type: 'module',
    exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } },
  }),
  'packages/core/tsconfig.json': json({ compilerOptions: packageOptions, include: ['src'] }),
  'packages/core/src/index.ts': [
    "export { Greeter } from './greeter.js';",
    'export function greet(name: string): string {',
    '  return `hello ${name}`;',
    '}',
    '',
  ].join('\n'),
  'packages/core/src/greeter.ts': ['export class Greeter {', '  hello(): string {', "    return 'hello';", '  }', '}', ''].join('\n'),
  'packages/app/package.json': json({ name: '@acme/app', type: 'module', dependencies: { '@acme/core': '*' } }),
  'packages/app/tsconfig.json': json({ compilerOptions: packageOptions, include: ['src'], references: [{ path: '../core' }] }),
  'packages/app/src/main.ts': [
    "import { greet, Greeter } from '@acme/core';",
    '',
    'export function run(): string {',
    '  return greet(new Greeter().hello());',
    '}',
    '',
  ].join('\n'),
  'scripts/lib.js': ['exports.helper = function (x) {', '  return x * 2;', '};', ''].join('\n'),
  'scripts/tool.js': ["const lib = require('./lib.js');", '', 'function main() {', '  return lib.helper(21);', '}', '', 'main();', ''].join(
    '\n',
  ),
};

describe('lang-typescript Phase B across projects', () => {
  let repo: string;
  let edges: string[];
  let driver: PluginDriver;

  beforeAll(async () => {
    repo = mkdtempSync(join(tmpdir(), 'lang-ts-projects-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(repo, path)), { recursive: true });
      writeFileSync(join(repo, path), text);
    }
    // The workspace link a package manager makes.
    mkdirSync(join(repo, 'node_modules', '@acme'), { recursive: true });
    symlinkSync('../../packages/core', join(repo, 'node_modules', '@acme', 'core'));
    driver = await PluginDriver.start(repo);
    edges = edgeLines((await driver.analyze('B', listFixtures(repo))).values());
  });
  afterAll(async () => {
    await driver?.stop();
    rmSync(repo, { recursive: true, force: true });
  });

  it('follows a package import through its exports to the sources of the referenced project', () => {
    expect(edges).toContain('calls packages/app/src/main.ts#run -> packages/core/src/index.ts#greet');
    expect(edges).toContain('calls packages/app/src/main.ts#run -> packages/core/src/greeter.ts#Greeter.hello');
    expect(edges).toContain('imports packages/app/src/main.ts# -> packages/core/src/index.ts#');
    expect(edges.filter((e) => e.includes('/dist/') || e.includes('node_modules'))).toEqual([]);
  });

  it('resolves JavaScript that no tsconfig names', () => {
    expect(edges).toContain('calls scripts/tool.js#main -> scripts/lib.js#helper');
    expect(edges).toContain('imports scripts/tool.js# -> scripts/lib.js#');
    expect(driver.logs.some((l) => l.message.startsWith('program of the inferred project'))).toBe(true);
  });
});
