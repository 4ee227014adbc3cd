import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultLibWithoutDom, domGlobalNames } from '../src/phase-b/dom-libs.js';
import { ProgramCache, type BuiltProgram } from '../src/phase-b/programs.js';
import { inferredOptions, type Project } from '../src/phase-b/projects.js';

const libDir = dirname(createRequire(import.meta.url).resolve('typescript/lib/lib.d.ts'));
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The inferred project of `files` (no tsconfig), written to a directory of their own. */
function inferred(files: Record<string, string>): { root: string; project: Project } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'lang-ts-dom-')));
  dirs.push(root);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
  const project: Project = {
    id: 'inferred',
    configPath: undefined,
    options: inferredOptions(),
    rootNames: Object.keys(files).map((f) => join(root, f)),
    projectReferences: undefined,
    configStamp: undefined,
    errors: [],
  };
  return { root, project };
}

const libsOf = (b: BuiltProgram) =>
  b.program
    .getSourceFiles()
    .filter((sf) => b.program.isSourceFileDefaultLibrary(sf))
    .map((sf) => basename(sf.fileName));

/** Where the call `callee(` in `file` goes, as `file:name` of its declaration. */
function callTarget(b: BuiltProgram, file: string, callee: string): string | undefined {
  const sf = b.program.getSourceFile(file)!;
  let target: string | undefined;
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && n.expression.getText(sf) === callee) {
      const decl = b.checker.getResolvedSignature(n)?.getDeclaration();
      if (decl) target = `${basename(decl.getSourceFile().fileName)}:${(decl as ts.FunctionDeclaration).name?.text ?? '?'}`;
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return target;
}

describe('a project without lib and the DOM libraries', () => {
  it('reads the DOM names from the shipped libraries: globals and types, none of the language', () => {
    const names = domGlobalNames(libDir);
    for (const n of ['document', 'window', 'HTMLElement', 'name', 'close', 'Event']) expect(names.has(n), n).toBe(true);
    for (const n of ['Array', 'Promise', 'Map', 'Symbol']) expect(names.has(n), n).toBe(false);
  });

  it('leaves them out for code that names nothing of the browser, with the same call targets', () => {
    const { root, project } = inferred({
      // Its own `close`, a local `name`, a property `length`: DOM names, none a DOM reference.
      'a.ts': [
        'export function close(): number { return 1; }',
        'export function run(items: string[]): number {',
        '  const name = items.map((s) => s.trim()).join();',
        '  return close() + name.length + items.length;',
        '}',
        '',
      ].join('\n'),
      'b.ts': "import { run } from './a';\nexport const r = run(['x']);\n",
    });
    const built = new ProgramCache(libDir, root).get(project).built;
    expect(built.dom).toBeFalsy();
    expect(libsOf(built)).not.toContain('lib.dom.d.ts');
    expect(libsOf(built)).toContain('lib.esnext.d.ts');
    expect(callTarget(built, join(root, 'a.ts'), 'close')).toBe('a.ts:close');
    expect(callTarget(built, join(root, 'b.ts'), 'run')).toBe('a.ts:run');
    // The same program with the DOM (as a config that lists it gets it) resolves the same calls.
    const withDom = new ProgramCache(libDir, root).get({
      ...project,
      id: 'with-dom',
      configPath: join(root, 'tsconfig.json'),
      options: { ...project.options, lib: ['lib.esnext.full.d.ts'] },
    }).built;
    expect(libsOf(withDom)).toContain('lib.dom.d.ts');
    expect(callTarget(withDom, join(root, 'a.ts'), 'close')).toBe('a.ts:close');
    expect(callTarget(withDom, join(root, 'b.ts'), 'run')).toBe('a.ts:run');
  });

  it('takes them when the code refers to the browser: a global, a type, a JSDoc type', () => {
    for (const files of [
      { 'a.ts': "export const el = document.querySelector('#app');\n" },
      { 'a.ts': 'export function mount(root: HTMLElement): void {}\n' },
      { 'a.js': '/** @param {HTMLElement} el */\nexport function mount(el) { return el; }\n' },
      // A script's bare `name` is the window's.
      { 'a.js': 'function greet() { return name; }\ngreet();\n' },
    ]) {
      const { root, project } = inferred(files);
      const built = new ProgramCache(libDir, root).get(project).built;
      expect(built.dom, Object.values(files)[0]).toBe(true);
      expect(libsOf(built)).toContain('lib.dom.d.ts');
    }
  });

  it('decides from the files alone, whichever program the session built before', () => {
    const { root, project } = inferred({ 'a.ts': 'export const w = window.innerWidth;\n' });
    const cache = new ProgramCache(libDir, root);
    expect(cache.get(project).built.dom).toBe(true);
    // The reference goes: the next build drops the DOM; it comes back: the DOM with it.
    writeFileSync(join(root, 'a.ts'), 'export const w = 1024;\n');
    expect(cache.get(project).built.dom).toBeFalsy();
    writeFileSync(join(root, 'a.ts'), 'export const w = window.innerWidth + 1;\n');
    expect(cache.get(project).built.dom).toBe(true);
  });

  it("takes each target's default library less the DOM: ES5, ES2015, ES2020, ESNext; none for a project that sets lib or noLib", () => {
    const { ScriptTarget } = ts;
    expect(defaultLibWithoutDom({ target: ScriptTarget.ES5 }, libDir)).toEqual(['lib.es5.d.ts']);
    expect(defaultLibWithoutDom({ target: ScriptTarget.ES2015 }, libDir)).toEqual(['lib.es2015.d.ts']);
    expect(defaultLibWithoutDom({ target: ScriptTarget.ES2020 }, libDir)).toEqual(['lib.es2020.d.ts']);
    expect(defaultLibWithoutDom({ target: ScriptTarget.ESNext }, libDir)).toEqual(['lib.esnext.d.ts']);
    expect(defaultLibWithoutDom({ target: ScriptTarget.ES2020, lib: ['lib.es2020.d.ts'] }, libDir)).toBeUndefined();
    expect(defaultLibWithoutDom({ noLib: true }, libDir)).toBeUndefined();
  });

  it('treats a tsconfig that sets no lib the same, for its own target, and keeps a lib it sets', () => {
    const { root, project } = inferred({ 'a.ts': 'export const x = 1;\n', 'b.ts': 'export const t = document.title;\n' });
    const config = join(root, 'tsconfig.json');
    const target = ts.ScriptTarget.ES2020;
    const cache = new ProgramCache(libDir, root);
    const plain = cache.get({ ...project, id: 'plain', configPath: config, rootNames: [join(root, 'a.ts')], options: { target } }).built;
    expect(plain.dom).toBeFalsy();
    expect(libsOf(plain)).toContain('lib.es2020.d.ts');
    expect(libsOf(plain)).not.toContain('lib.dom.d.ts');
    const browser = cache.get({
      ...project,
      id: 'browser',
      configPath: config,
      rootNames: [join(root, 'b.ts')],
      options: { target },
    }).built;
    expect(browser.dom).toBe(true);
    expect(libsOf(browser)).toContain('lib.dom.d.ts');
    const lib = ['lib.es2020.d.ts', 'lib.dom.d.ts'];
    const set = cache.get({ ...project, id: 'set', configPath: config, rootNames: [join(root, 'a.ts')], options: { target, lib } }).built;
    expect(set.dom).toBeUndefined();
    expect(libsOf(set)).toContain('lib.dom.d.ts');
  });
});
