// Every error class of every package extends TravsrError (protocol/src/travsr-error.ts), so it has
// a code and a name. The sources are parsed with the TypeScript compiler and each class's
// superclass chain is followed across files: a chain that reaches Error (or RangeError, …)
// without passing through TravsrError fails here, unless the class is one of the few listed
// below with the reason it has no code.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { TravsrError, errorCode } from '@travsr/protocol';
import { parseVersion, verifyTreeHash } from '@travsr/registry';
import { decodeScipIndex } from '@travsr/sdk/scip';
import { GraphStore } from '../../host/src/store/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Where the base class is declared (the one class allowed to extend Error directly). */
const BASE = { file: 'protocol/src/travsr-error.ts', name: 'TravsrError' };

/** Error classes that do not extend TravsrError, and why: `file#Class` → reason. */
const EXEMPT = new Map<string, string>([
  ['protocol/src/errors.ts#WireException', 'the wire family: a numeric JSON-RPC code that crosses the wire'],
  [
    'sdk/src/testing/session.ts#StepFailure',
    "a conformance step's report line, with no code; giving it one would change how a launcher failure escaping snapshotTest is printed",
  ],
  ['host/src/sandbox/allowlist-proxy.ts#RequestError', 'inside the allowlist proxy only: answered to the plugin as an HTTP status'],
  ['host/src/connect/json-text.ts#ScanStop', 'control flow inside scanJson, which returns it as data and never throws it'],
]);

const BUILTIN_ERRORS = new Set([
  'Error',
  'TypeError',
  'RangeError',
  'SyntaxError',
  'ReferenceError',
  'EvalError',
  'URIError',
  'AggregateError',
]);

/** One class declaration found in the sources. */
interface ClassInfo {
  file: string;
  name: string;
  /** The superclass expression as written (`Error`, `TravsrError`, `Errors.CLIError`). */
  superclass: string | undefined;
  /** Declares a `name` field or assigns `this.name`. */
  setsName: boolean;
}

/** The classes declared in one source file. */
function classesIn(file: string, text: string): ClassInfo[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const found: ClassInfo[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
      const heritage = node.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword);
      const setsName =
        node.members.some((m) => ts.isPropertyDeclaration(m) && m.name.getText(source) === 'name' && m.initializer !== undefined) ||
        /\bthis\.name\s*=/.test(node.getText(source));
      found.push({
        file,
        name: node.name?.text ?? `<anonymous class at ${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}>`,
        superclass: heritage?.types[0]?.expression.getText(source),
        setsName,
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** What a class's superclass chain reaches. */
type Ancestry = 'base' | 'builtin-error' | 'foreign-error' | 'other';

/**
 * Follows each class's superclass by name (a class of the same file first, then of any file)
 * and reports the classes whose chain reaches an Error without TravsrError, and TravsrError
 * subclasses that set no name. Exempt classes (`file#Class`) are skipped.
 */
function checkErrorClasses(
  classes: ClassInfo[],
  exempt: ReadonlyMap<string, string>,
): { violations: string[]; bases: ClassInfo[]; exemptFound: string[] } {
  const byName = new Map<string, ClassInfo[]>();
  for (const c of classes) byName.set(c.name, [...(byName.get(c.name) ?? []), c]);
  const ancestry = (c: ClassInfo, seen = new Set<ClassInfo>()): Ancestry => {
    const sup = c.superclass;
    if (sup === undefined || seen.has(c)) return 'other';
    seen.add(c);
    if (sup === BASE.name) return 'base';
    if (BUILTIN_ERRORS.has(sup)) return 'builtin-error';
    const candidates = byName.get(sup) ?? [];
    const parent = candidates.find((p) => p.file === c.file) ?? candidates[0];
    if (parent) return ancestry(parent, seen);
    // A class from a dependency (`Errors.CLIError`, `TomlError`): an error by its name.
    return /Error$/.test(sup) ? 'foreign-error' : 'other';
  };
  const violations: string[] = [];
  const bases: ClassInfo[] = [];
  const exemptFound: string[] = [];
  for (const c of classes) {
    if (c.file === BASE.file && c.name === BASE.name) continue;
    const key = `${c.file}#${c.name}`;
    const kind = ancestry(c);
    if (kind === 'other') continue;
    if (kind === 'base') {
      bases.push(c);
      if (!c.setsName) violations.push(`${key} extends TravsrError but sets no name (add \`override readonly name = '${c.name}'\`)`);
    } else if (exempt.has(key)) {
      exemptFound.push(key);
    } else {
      violations.push(
        `${key} extends ${c.superclass} without TravsrError: extend TravsrError from @travsr/protocol (or @travsr/sdk in a plugin) and give it a code`,
      );
    }
  }
  return { violations, bases, exemptFound };
}

/** Every `.ts` source file of the packages (not tests, not build output). */
function sourceFiles(): string[] {
  const roots = ['protocol/src', 'sdk/src', 'registry/src', 'host/src'];
  for (const p of readdirSync(join(ROOT, 'plugins'))) if (existsSync(join(ROOT, 'plugins', p, 'src'))) roots.push(`plugins/${p}/src`);
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules') walk(path);
      else if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
        files.push(relative(ROOT, path).split('\\').join('/'));
    }
  };
  for (const r of roots) walk(join(ROOT, r));
  return files;
}

describe('error classes', () => {
  const classes = sourceFiles().flatMap((f) => classesIn(f, readFileSync(join(ROOT, f), 'utf8')));
  const result = checkErrorClasses(classes, EXEMPT);

  it('every error class of every package extends TravsrError and sets its name', () => {
    expect(result.violations).toEqual([]);
  });

  it('finds the error classes of each package (the scan sees the sources)', () => {
    const names = result.bases.map((c) => `${c.file.split('/src/')[0]}:${c.name}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'protocol:ProtocolError',
        'protocol:ConnectionError',
        'sdk:SourceReadError',
        'registry:RegistryError',
        'host:StoreError',
        'host:PluginError',
        'sdk:ScipPhaseBError',
        'plugins/lang-python:ScipPythonError',
      ]),
    );
  });

  it('lists only exemptions that still exist and still need it', () => {
    expect(result.exemptFound.sort()).toEqual([...EXEMPT.keys()].sort());
  });

  it('reports a new class extending Error, RangeError or an Error subclass, and a foreign error class', () => {
    const source = `
      class Fine extends TravsrError { override readonly name = 'Fine'; readonly code = 'FINE'; }
      class Nameless extends TravsrError { readonly code = 'NAMELESS'; }
      class Direct extends Error {}
      class Ranged extends RangeError {}
      class Middle extends Error {}
      class Deep extends Middle {}
      class FromOclif extends Errors.CLIError {}
      class Stream extends Transform {}
      const Anonymous = class extends Error {};
    `;
    const { violations, bases } = checkErrorClasses(classesIn('host/src/new.ts', source), new Map());
    expect(bases.map((c) => c.name)).toEqual(['Fine', 'Nameless']);
    expect(violations.map((v) => v.split(' ')[0])).toEqual([
      'host/src/new.ts#Nameless',
      'host/src/new.ts#Direct',
      'host/src/new.ts#Ranged',
      'host/src/new.ts#Middle',
      'host/src/new.ts#Deep',
      'host/src/new.ts#FromOclif',
      'host/src/new.ts#<anonymous',
    ]);
  });
});

describe('errors thrown by each package', () => {
  /** What `fn` throws (undefined when it returns). */
  const thrown = (fn: () => unknown): unknown => {
    try {
      fn();
    } catch (e) {
      return e;
    }
    return undefined;
  };

  // Real failures of the built packages: each is a TravsrError with its package's code.
  it('sdk, registry and host errors are TravsrErrors recognised by code', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'travsr-errors-'));
    try {
      const db = join(dir, 'graph.db');
      writeFileSync(db, 'not a SQLite database: a text file where the graph should be\n'.repeat(100));
      const caught = [
        thrown(() => decodeScipIndex(Uint8Array.of(0x0a, 0xff))),
        thrown(() => parseVersion('not-a-version')),
        await verifyTreeHash(join(dir, 'missing-plugin'), 'sha256:0').catch((e: unknown) => e),
        thrown(() => GraphStore.open(db).close()),
      ];
      expect(caught.map((e) => [(e as Error).name, errorCode(e), e instanceof TravsrError])).toEqual([
        ['ScipFormatError', 'SCIP_MALFORMED', true],
        ['RegistryError', 'VERSION_INVALID', true],
        ['TreeHashError', 'TREE_UNREADABLE', true],
        ['StoreError', 'STORE_CORRUPT', true],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
