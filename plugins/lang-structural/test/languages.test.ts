// One case per language: a small realistic file of snapshots/input, analyzed in process with the
// built grammars and queries, must yield the definitions, imports, calls and inheritance a
// reader of the file would list. (The snapshot test checks the whole output; this one says
// what matters, so that a regression reads as "Go lost its method receivers", not as a diff.)
import { existsSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { StructuralAnalyzer } from '../src/structural-analyzer.js';
import { LANGUAGES } from '../src/languages.js';
import { analyzeInput, buildHint, builtAnalyzer, definitions, distDir, inputDir, references } from './analyze-fixture.js';

interface Case {
  file: string;
  defines: string[];
  refers: string[];
}

const CASES: Record<string, Case> = {
  elixir: {
    file: 'elixir/lib/chat/room.ex',
    defines: [
      'module Chat.Room',
      'function Chat.Room.start_link',
      'function Chat.Room.post',
      'function Chat.Room.via',
      'macro Chat.Room.is_room',
      'module Chat.Room.Describable',
    ],
    refers: [
      'imports GenServer <- Chat.Room',
      'imports Chat.Presence <- Chat.Room',
      'implements Chat.Broadcaster <- Chat.Room',
      'calls GenServer.start_link <- Chat.Room.start_link',
      'calls via <- Chat.Room.start_link',
      'calls Chat.Metrics.count <- Chat.Room.handle_cast',
    ],
  },
  zig: {
    file: 'zig/src/stack.zig',
    defines: ['function Stack', 'method Stack.push', 'enum Color', 'struct Point', 'method Point.length', 'function push then pop'],
    refers: [
      'imports std <- <file>',
      'calls self.items.append <- Stack.push',
      'calls std.math.sqrt <- Point.length',
      'calls s.push <- push then pop',
    ],
  },
  bash: {
    file: 'bash/scripts/deploy.sh',
    defines: ['function log', 'function build_release', 'function deploy_to'],
    refers: [
      'imports ./config.env <- <file>',
      'imports /lib/common.sh <- <file>',
      'calls log <- build_release',
      'calls make <- build_release',
      'calls deploy_to <- <file>',
    ],
  },
  ocaml: {
    file: 'ocaml/lib/inventory.ml',
    defines: [
      'module SMap',
      'interface STORE',
      'function STORE.load',
      'module Memory',
      'function Memory.load',
      'class counter',
      'method counter.incr',
      'function reserve',
      'type item',
    ],
    refers: [
      'imports Printf <- <file>',
      'calls S.load <- reserve',
      'calls printf <- reserve',
      'calls Hashtbl.find_opt <- Memory.load',
      'calls List.fold_left <- total',
    ],
  },
};

let analyzer: StructuralAnalyzer;
beforeAll(async () => {
  expect(existsSync(`${distDir}main.js`), buildHint).toBe(true);
  analyzer = builtAnalyzer();
  await analyzer.initialize();
});

describe('every language served has a case', () => {
  it('covers the language table', () => {
    expect(Object.keys(CASES).sort()).toEqual(LANGUAGES.map((l) => l.id).sort());
  });
});

describe.each(Object.entries(CASES))('%s', (language, c) => {
  it(`finds the definitions, imports, calls and inheritance of ${c.file}`, async () => {
    const result = await analyzeInput(analyzer, c.file);
    expect(result.diagnostics ?? [], 'a valid file parses without errors').toEqual([]);
    expect(result.nodes[0]?.vname.language).toBe(language);
    expect(definitions(result)).toEqual(expect.arrayContaining(c.defines));
    expect(references(result)).toEqual(expect.arrayContaining(c.refers));
  });
});

describe('what is not a reference', () => {
  it('keeps builtins and keywords out of the calls', async () => {
    const ex = references(await analyzeInput(analyzer, 'elixir/lib/chat/room.ex'));
    // `def start_link(name)` is a definition, and `@doc "…"` an attribute: neither is a call.
    expect(ex.filter((r) => /^calls (def|defp|start_link|doc|impl|moduledoc) /.test(r))).toEqual([]);
    const sh = references(await analyzeInput(analyzer, 'bash/scripts/deploy.sh'));
    expect(sh.filter((r) => /^calls (set|local|printf) /.test(r))).toEqual([]);
  });
});

describe('language choice', () => {
  it('parses by extension when the host names a language the extension does not have', async () => {
    // The SDK test kit hands a multi-language plugin its first declared language for every file.
    const spec = analyzer.languageFor({ path: 'lib/app.ex', language: 'bash' });
    expect(spec?.id).toBe('elixir');
    expect(analyzer.languageFor({ path: 'mix.exs', language: 'elixir' })?.id).toBe('elixir');
    expect(analyzer.languageFor({ path: 'src/main.zig', language: 'bash' })?.id).toBe('zig');
  });

  it('fails a file it has no grammar for with the reason', async () => {
    await expect(analyzeInput(analyzer, 'notes/readme.txt', 'hello')).rejects.toThrow(/no grammar for notes\/readme.txt/);
  });

  it('stops a parse that takes too long, fails that file, and parses the next one', async () => {
    const impatient = new StructuralAnalyzer({ grammarDir: distDir, queryDir: `${distDir}queries/`, parseTimeoutMs: 0 });
    await impatient.initialize();
    const big = readFileSync(`${inputDir}elixir/lib/chat/room.ex`, 'utf8').repeat(200);
    await expect(analyzeInput(impatient, 'elixir/Big.ex', big)).rejects.toThrow(/took longer than 0 s and was stopped/);
    const patient = builtAnalyzer();
    await patient.initialize();
    expect((await analyzeInput(patient, 'elixir/Big.ex', big)).nodes.length).toBeGreaterThan(200);
  });

  it('loads a grammar only when a file of its language arrives', async () => {
    const fresh = builtAnalyzer();
    await fresh.initialize();
    expect(fresh.loadedLanguages).toEqual([]);
    await analyzeInput(fresh, 'elixir/lib/chat/room.ex');
    expect(fresh.loadedLanguages).toEqual(['elixir']);
  });
});
