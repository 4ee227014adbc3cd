import { appendFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import { ProgramCache } from '../src/phase-b/programs.js';
import { readProject } from '../src/phase-b/projects.js';

const libDir = dirname(createRequire(import.meta.url).resolve('typescript/lib/lib.d.ts'));
const readFile = ts.sys.readFile.bind(ts.sys);
const originalReadFile = Object.getOwnPropertyDescriptor(ts.sys, 'readFile')!;
const dirs: string[] = [];

afterEach(() => {
  Object.defineProperty(ts.sys, 'readFile', originalReadFile);
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function project(): { root: string; a: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'lang-ts-programs-')));
  dirs.push(root);
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ['src'] }));
  writeFileSync(join(root, 'src', 'a.ts'), 'export function f(x: number) {\n  return x + 1;\n}\n');
  writeFileSync(join(root, 'src', 'b.ts'), "import { f } from './a';\nexport const y = f(1);\n");
  return { root, a: join(root, 'src', 'a.ts') };
}

describe('ProgramCache', () => {
  it('reuses a program while its files are unchanged, rebuilds it after an edit', () => {
    const { root, a } = project();
    const cache = new ProgramCache(libDir, root);
    const p = readProject(join(root, 'tsconfig.json'));
    const first = cache.get(p);
    expect(first.reused).toBe(false);
    expect(cache.get(p)).toMatchObject({ reused: true });
    appendFileSync(a, 'export const z = 2;\n');
    const after = cache.get(p);
    expect(after.reused).toBe(false);
    expect(after.built.program.getSourceFile(a)?.text).toContain('export const z = 2;');
  });

  it('does not take a program for current when a file was written while it was being built', () => {
    const { root, a } = project();
    const cache = new ProgramCache(libDir, root);
    const p = readProject(join(root, 'tsconfig.json'));
    // An editor saves a.ts right after the build has read it (a build takes seconds on a large project).
    ts.sys.readFile = (path, encoding) => {
      const text = readFile(path, encoding);
      if (path === a && !text?.includes('edited')) appendFileSync(a, 'export const edited = true;\n');
      return text;
    };
    const first = cache.get(p);
    Object.defineProperty(ts.sys, 'readFile', originalReadFile);
    expect(first.built.program.getSourceFile(a)?.text).not.toContain('edited');
    const next = cache.get(p);
    expect(next.reused).toBe(false);
    expect(next.built.program.getSourceFile(a)?.text).toContain('export const edited = true;');
  });
});
