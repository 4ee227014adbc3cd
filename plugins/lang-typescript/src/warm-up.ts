// The work the build runs before it stores the analysis bundle's V8 code caches
// (`writeCodeCaches` of `@travsr/sdk/build`): both phases over a small repository, so the
// functions a session compiles lazily — the parser's, the binder's, the checker's and this
// plugin's — start from the cache too, not only the bundle's top level.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { languageOf } from './languages.js';
import { phaseAResult } from './phase-a.js';
import { PhaseBSession } from './phase-b/session.js';

/** A small repository in the shapes real code has: modules, classes, generics, JSX, JavaScript, a tsconfig. */
const SAMPLE: Record<string, string> = {
  'src/shapes.ts': [
    'export interface Shape { area(): number; readonly name: string }',
    'export abstract class Base implements Shape {',
    '  constructor(readonly name: string) {}',
    '  abstract area(): number;',
    '  describe(): string { return `${this.name}: ${this.area().toFixed(2)}`; }',
    '}',
    'export class Circle extends Base {',
    '  constructor(private readonly r: number) { super("circle"); }',
    '  area(): number { return Math.PI * this.r ** 2; }',
    '}',
    'export class Square extends Base {',
    '  constructor(private readonly side: number) { super("square"); }',
    '  area(): number { return this.side * this.side; }',
    '}',
    'export type Kind = "circle" | "square";',
    'export enum Unit { Metre, Foot }',
  ].join('\n'),
  'src/registry.ts': [
    "import { Circle, Square, type Shape, type Kind } from './shapes';",
    "import * as util from './util';",
    'export class Registry<T extends Shape = Shape> {',
    '  private readonly items = new Map<string, T>();',
    '  add(key: string, item: T): this { this.items.set(key, item); return this; }',
    '  get(key: string): T | undefined { return this.items.get(key); }',
    '  total(): number { return util.sum([...this.items.values()].map((s) => s.area())); }',
    '}',
    'export function make(kind: Kind, size: number): Shape {',
    '  switch (kind) { case "circle": return new Circle(size); default: return new Square(size); }',
    '}',
    'export const registry = new Registry().add("a", make("circle", 1)).add("b", make("square", 2));',
    'export async function load(keys: readonly string[]): Promise<Shape[]> {',
    '  const out: Shape[] = [];',
    '  for (const k of keys) { const s = registry.get(k); if (s) out.push(s); }',
    '  return Promise.all(out.map(async (s) => s));',
    '}',
  ].join('\n'),
  'src/util.ts': [
    'export function sum(xs: readonly number[]): number { return xs.reduce((a, b) => a + b, 0); }',
    'export const pick = <T, K extends keyof T>(o: T, ...keys: K[]): Pick<T, K> =>',
    '  Object.fromEntries(keys.map((k) => [k, o[k]])) as Pick<T, K>;',
    'export namespace Text { export function upper(s: string): string { return s.toUpperCase(); } }',
  ].join('\n'),
  'src/view.tsx': [
    "import { registry } from './registry';",
    'declare global { namespace JSX { interface IntrinsicElements { [name: string]: unknown } } }',
    'export function Total(props: { label: string }) {',
    '  return <div title={props.label}>{registry.total()}</div>;',
    '}',
  ].join('\n'),
  'src/legacy.js': [
    "const { sum } = require('./util');",
    'class Counter { constructor() { this.n = 0; } inc() { this.n += 1; return sum([this.n]); } }',
    'module.exports = { Counter };',
  ].join('\n'),
  'tsconfig.json': JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'NodeNext', jsx: 'preserve', strict: true, allowJs: true },
    include: ['src'],
  }),
  'scripts/tool.ts': "import { make } from '../src/registry';\nexport const shape = make('circle', 3);\nconsole.log(shape.area());\n",
};

/**
 * Runs Phase A and Phase B over {@link SAMPLE} in a temporary directory (removed after),
 * checking programs with the TypeScript libraries in `libDir`.
 */
export function warmUp(libDir: string): void {
  const root = mkdtempSync(join(tmpdir(), 'travsr-lang-typescript-warm-'));
  try {
    for (const [path, text] of Object.entries(SAMPLE)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const files = Object.keys(SAMPLE)
      .filter((p) => !p.endsWith('.json'))
      .map((path) => ({ path, language: languageOf(path) }));
    const session = new PhaseBSession(root, 'warm-up', libDir, () => {});
    for (const f of files) {
      const text = SAMPLE[f.path] ?? '';
      phaseAResult({ ...f, text }, 'warm-up', () => session.sourceFile(f.path, text));
    }
    for (const r of session.analyze(files)) if (r.status === 'failed') throw new Error(`warm-up: Phase B failed on ${r.path}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
