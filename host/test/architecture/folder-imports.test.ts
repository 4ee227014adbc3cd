import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

/*
 * The folders of host/src are layers: a folder may use the folders below it, never one that uses
 * it back. A cycle between two folders (indexer → lang → indexer, as there was) means neither can
 * be read, tested or moved alone. The compiler accepts such cycles, so only this check notices.
 * Every relative import counts, type-only and dynamic ones included: a type import is still a
 * dependency a reader must follow.
 */

const HOST_SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const CODE_FILE = /\.[cm]?ts$/;

/** Folder → folders it imports → the files that import them (relative to the source root). */
type FolderGraph = Map<string, Map<string, string[]>>;

function codeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? codeFiles(join(dir, e.name)) : CODE_FILE.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/**
 * The unit a file belongs to: its top-level folder under the source root; a file at the root
 * (`index.ts`, `version.ts`) is a unit of its own, so the library entry that re-exports every
 * folder is not one node with `version.ts`, which those folders read. Undefined outside the root.
 */
function unitOf(root: string, file: string): string | undefined {
  const rel = relative(root, file);
  if (rel.startsWith('..') || rel === '') return undefined;
  const [first, ...rest] = rel.split(sep);
  // An import names the emitted file (`../version.js`), the importer is the source (`version.ts`).
  return rest.length > 0 ? first : rel.replace(/\.([cm]?)js$/, '.$1ts');
}

/** Every import between different units of `root`: static, dynamic, re-exports and type-only imports. */
function folderGraph(root: string): FolderGraph {
  const graph: FolderGraph = new Map();
  for (const file of codeFiles(root)) {
    const from = unitOf(root, file);
    if (from === undefined) continue;
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue; // a package or a Node built-in: not a host folder
      const to = unitOf(root, resolve(dirname(file), fileName));
      if (to === undefined || to === from) continue;
      const targets = graph.get(from) ?? new Map<string, string[]>();
      graph.set(from, targets);
      targets.set(to, [...(targets.get(to) ?? []), relative(root, file)]);
    }
  }
  return graph;
}

/** The groups of folders that reach each other (strongly connected components of two or more), each sorted; Tarjan's algorithm. */
function folderCycles(graph: FolderGraph): string[][] {
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    order.set(node, order.size);
    low.set(node, order.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!order.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, order.get(next)!));
      }
    }
    if (low.get(node) !== order.get(node)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) cycles.push(group.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!order.has(node)) visit(node);
  return cycles.sort((a, b) => a.join().localeCompare(b.join()));
}

/** One line per import between the folders of a cycle, naming a file that makes it: what a reader needs to break the cycle. */
function describeCycle(graph: FolderGraph, cycle: readonly string[]): string {
  const lines = cycle.flatMap((from) =>
    [...(graph.get(from) ?? [])]
      .filter(([to]) => cycle.includes(to))
      .map(([to, files]) => `  ${from} → ${to} (${files.length} import${files.length === 1 ? '' : 's'}, e.g. ${files[0]})`),
  );
  return [`folders ${cycle.join(', ')} import each other:`, ...lines].join('\n');
}

describe('host/src folder imports', () => {
  const graph = folderGraph(HOST_SRC);

  it('sees the folders and their imports', () => {
    expect([...graph.keys()]).toEqual(expect.arrayContaining(['catalog', 'cli', 'indexer', 'plugins', 'workspace']));
    expect([...(graph.get('indexer')?.keys() ?? [])]).toContain('catalog');
  });

  it('has no cycle between folders', () => {
    const report = folderCycles(graph).map((cycle) => describeCycle(graph, cycle));
    expect(report, 'a folder of host/src imports one that imports it back; move the shared part to a folder both can use').toEqual([]);
  });

  describe('the check itself', () => {
    const root = mkdtempSync(join(tmpdir(), 'travsr-folders-'));
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    /** A source root of its own for one case, holding the given files. */
    const sourceTree = (name: string, files: Record<string, string>): string => {
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(root, name, path)), { recursive: true });
        writeFileSync(join(root, name, path), text);
      }
      return join(root, name);
    };

    it('reports a cycle made by any kind of import, naming the folders and a file of each direction', () => {
      const fixture = folderGraph(
        sourceTree('cycle', {
          'a/one.ts': "import type { B } from '../b/deep/two.js';\nexport type A = B;\n",
          'b/deep/two.ts': "export type B = string;\nexport const load = () => import('../../c/three.js');\n",
          'c/three.ts': "export * from '../a/one.js';\n",
          'd/four.ts': "import '../a/one.js';\nimport { readFileSync } from 'node:fs';\n",
        }),
      );
      const cycles = folderCycles(fixture);
      expect(cycles).toEqual([['a', 'b', 'c']]);
      expect(describeCycle(fixture, cycles[0]!)).toBe(
        [
          'folders a, b, c import each other:',
          '  a → b (1 import, e.g. a/one.ts)',
          `  b → c (1 import, e.g. ${join('b', 'deep', 'two.ts')})`,
          '  c → a (1 import, e.g. c/three.ts)',
        ].join('\n'),
      );
    });

    it('finds no cycle once one direction is gone, and counts files at the root as units of their own', () => {
      const fixture = folderGraph(
        sourceTree('layers', {
          'a/one.ts': "import type { B } from '../b/deep/two.js';\nexport type A = B;\n",
          'b/deep/two.ts': "export type B = string;\nexport const load = () => import('../../c/three.js');\n",
          'c/three.ts': 'export const three = 3;\n',
          'c/uses-version.ts': "import { VERSION } from '../version.js';\nexport const v = VERSION;\n",
          'index.ts': "export * from './a/one.js';\nexport * from './c/three.js';\n",
          'version.ts': "export const VERSION = '1';\n",
        }),
      );
      expect(folderCycles(fixture)).toEqual([]);
      expect([...(fixture.get('index.ts')?.keys() ?? [])].sort()).toEqual(['a', 'c']);
      expect([...(fixture.get('c')?.keys() ?? [])]).toEqual(['version.ts']);
    });
  });
});
