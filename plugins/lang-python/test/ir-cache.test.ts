// The module IR cache: what a session keeps for the next one, and what it does with bad entries.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { IR_FORMAT, IrCache } from '../src/resolve/ir-cache.js';
import { PythonSyntax } from '../src/syntax/python-syntax.js';
import { analyzeProject, GRAMMAR } from './helpers/analyze-project.js';

/** How long a test waits for the cache's idle work: far beyond its 30 ms idle delay, for busy machines. */
const IDLE_WAIT = { timeout: 15_000, interval: 50 };

const TEXT = 'class A:\n    def f(self):\n        self.x = [1]\n        global G\n        return self\n\nG = A()\n';

function entries(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(p);
    }
  };
  walk(dir);
  return out;
}

describe('IrCache', () => {
  it('gives back the IR a module had, Maps and Sets included, under the path it has now', async () => {
    const syntax = new PythonSyntax({ grammar: GRAMMAR });
    await syntax.initialize();
    const dir = mkdtempSync(join(tmpdir(), 'ir-cache-'));
    const ir = syntax.read('a.py', TEXT);
    const writer = new IrCache(dir);
    writer.put(TEXT, ir);
    expect(writer.pendingCount).toBe(1);
    writer.flush();
    const cache = new IrCache(dir);
    const back = cache.get('moved/a.py', TEXT);
    expect(cache.hits).toBe(1);
    expect(back).toEqual({ ...ir, path: 'moved/a.py' });
    expect(back!.scopes[0]!.names).toBeInstanceOf(Map);
    expect(cache.get('a.py', `${TEXT}\n# edited\n`)).toBeUndefined();
    expect(cache.misses).toBe(1);
  });

  it("finds a module by its text or its file's bytes alike (Phase A has the text, resolution reads files)", async () => {
    const syntax = new PythonSyntax({ grammar: GRAMMAR });
    await syntax.initialize();
    const dir = mkdtempSync(join(tmpdir(), 'ir-cache-'));
    const text = `"""Café — ünïcode."""\n${TEXT}`;
    const other = `${text}# other\n`;
    const writer = new IrCache(dir);
    writer.put(text, syntax.read('a.py', text));
    writer.put(new TextEncoder().encode(other), syntax.read('b.py', other));
    writer.flush();
    const cache = new IrCache(dir);
    expect(cache.get('a.py', Buffer.from(text))?.doc).toBe('Café — ünïcode.');
    expect(cache.get('b.py', other)?.path).toBe('b.py');
    expect(cache.hits).toBe(2);
  });

  it('treats an entry that does not decode as a miss, and removes it', async () => {
    const syntax = new PythonSyntax({ grammar: GRAMMAR });
    await syntax.initialize();
    const dir = mkdtempSync(join(tmpdir(), 'ir-cache-'));
    const writer = new IrCache(dir);
    writer.put(TEXT, syntax.read('a.py', TEXT));
    writer.flush();
    const [file] = entries(join(dir, IR_FORMAT));
    writeFileSync(file!, 'not an entry at all \u0000\u00ff');
    const cache = new IrCache(dir);
    expect(cache.get('a.py', TEXT)).toBeUndefined();
    expect(entries(join(dir, IR_FORMAT))).toEqual([]);
  });

  it('reads a module afresh when a later part of its entry does not decode, and removes the entry', async () => {
    const syntax = new PythonSyntax({ grammar: GRAMMAR });
    await syntax.initialize();
    const ir = syntax.read('a.py', TEXT);
    const functionScope = ir.scopes.findIndex((s) => s.kind === 'function');
    expect(ir.scopes[functionScope]!.names.size).toBeGreaterThan(0);
    for (const broken of [1, 2]) {
      // 1: the names bound in functions; 2: calls, imports, type references.
      const dir = mkdtempSync(join(tmpdir(), 'ir-cache-'));
      const writer = new IrCache(dir);
      writer.put(TEXT, ir);
      writer.flush();
      const [file] = entries(join(dir, IR_FORMAT));
      // The header names each document's byte length; overwrite one document with as many bytes of garbage.
      const bytes = readFileSync(file!);
      const eol = bytes.indexOf(0x0a);
      const [format, ...lengths] = bytes
        .toString('latin1', 0, eol)
        .split(' ')
        .map((x, i) => (i === 0 ? x : Number(x)));
      expect(format).toBe(IR_FORMAT);
      expect(lengths).toHaveLength(3);
      const start = eol + 1 + (lengths as number[]).slice(0, broken).reduce((a, b) => a + b, 0);
      bytes.fill('x', start, start + (lengths[broken] as number));
      writeFileSync(file!, bytes);
      let parsed = 0;
      const cache = new IrCache(dir, (path, text) => {
        parsed++;
        return syntax.read(path, text);
      });
      const back = cache.get('a.py', TEXT)!;
      // What every resolution reads comes from the first document; a broken later one only counts when asked for.
      expect(back.defs).toEqual(ir.defs);
      expect(back.scopes[0]!.names).toEqual(ir.scopes[0]!.names);
      expect(parsed).toBe(0);
      expect(back.scopes[functionScope]!.names).toEqual(ir.scopes[functionScope]!.names);
      expect(back.calls).toEqual(ir.calls);
      expect(back.typeRefs).toEqual(ir.typeRefs);
      expect(parsed).toBe(1);
      expect(entries(join(dir, IR_FORMAT))).toEqual([]);
    }
  });

  it('writes pending entries once the plugin has been idle, not while it analyzes', async () => {
    const syntax = new PythonSyntax({ grammar: GRAMMAR });
    await syntax.initialize();
    const dir = mkdtempSync(join(tmpdir(), 'ir-cache-'));
    const cache = new IrCache(dir);
    cache.put(TEXT, syntax.read('a.py', TEXT));
    cache.put(`${TEXT}# two\n`, syntax.read('b.py', `${TEXT}# two\n`));
    expect(cache.pendingCount).toBe(2);
    // Idle moments come when the event loop is free: poll, a busy machine delays them.
    await vi.waitFor(() => expect(cache.pendingCount).toBe(0), IDLE_WAIT);
    expect(entries(join(dir, IR_FORMAT))).toHaveLength(2);
  });

  it('removes the folders of older formats while idle, and nothing else of the cache directory', async () => {
    const syntax = new PythonSyntax({ grammar: GRAMMAR });
    await syntax.initialize();
    const dir = mkdtempSync(join(tmpdir(), 'ir-cache-'));
    for (const old of ['ir-1', 'ir-7']) {
      mkdirSync(join(dir, old, 'ab'), { recursive: true });
      writeFileSync(join(dir, old, 'ab', 'cd.ir'), 'old entry');
    }
    mkdirSync(join(dir, 'scip'));
    const cache = new IrCache(dir);
    cache.put(TEXT, syntax.read('a.py', TEXT));
    await vi.waitFor(() => expect(readdirSync(dir).sort()).toEqual([IR_FORMAT, 'scip']), IDLE_WAIT);
  });

  it('looks at the folders of older formats in a later idle moment when a slow write used up the slice', async () => {
    const syntax = new PythonSyntax({ grammar: GRAMMAR });
    await syntax.initialize();
    const dir = mkdtempSync(join(tmpdir(), 'ir-cache-'));
    for (const old of ['ir-1', 'ir-7']) mkdirSync(join(dir, old));
    const cache = new IrCache(dir);
    // Every reading of the clock 10 ms later than the one before: the write takes the whole slice.
    let t = 0;
    const now = vi.spyOn(performance, 'now').mockImplementation(() => (t += 10));
    try {
      cache.put(TEXT, syntax.read('a.py', TEXT));
      await vi.waitFor(() => expect(readdirSync(dir).sort()).toEqual([IR_FORMAT]), IDLE_WAIT);
    } finally {
      now.mockRestore();
    }
  });

  it('drops what a zero flush budget cannot write', async () => {
    const syntax = new PythonSyntax({ grammar: GRAMMAR });
    await syntax.initialize();
    const dir = mkdtempSync(join(tmpdir(), 'ir-cache-'));
    const cache = new IrCache(dir);
    cache.put(TEXT, syntax.read('a.py', TEXT));
    cache.flush(-1);
    expect(cache.pendingCount).toBe(0);
    expect(new IrCache(dir).get('a.py', TEXT)).toBeUndefined();
  });

  it('keeps nothing without a cache directory', () => {
    const cache = new IrCache(undefined);
    expect(cache.enabled).toBe(false);
    expect(cache.get('a.py', TEXT)).toBeUndefined();
  });

  it('gives a later session the same graph from cached modules', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ir-cache-'));
    const files = {
      'pkg/__init__.py': 'from .m import Thing\n',
      'pkg/m.py': 'class Thing:\n    def go(self):\n        return helper()\n\ndef helper():\n    pass\n',
      'app.py': 'from pkg import Thing\n\ndef main():\n    Thing().go()\n',
    };
    const first = await analyzeProject(files, undefined, undefined, { cacheDir: dir });
    const second = await analyzeProject(files, ['app.py'], first.root, { cacheDir: dir });
    expect(first.logs.join('\n')).toMatch(/module cache: 0 hits, 3 misses/);
    expect(second.logs.join('\n')).toMatch(/module cache: [1-9]\d* hits, 0 misses/);
    expect(second.edges.filter((e) => e.startsWith('app.py')).sort()).toEqual(first.edges.filter((e) => e.startsWith('app.py')).sort());
  });
});
