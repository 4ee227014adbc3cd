import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GraphFileParams } from '@travsr/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFixtures } from './helpers/fixtures.js';
import { edgeLines, PluginDriver } from './helpers/plugin-driver.js';

const input = fileURLToPath(new URL('../snapshots/input', import.meta.url));

/** The edges of a session asked for Phase B alone, as the first suite's session gave them. */
let phaseBEdges: string[] | undefined;
async function phaseBAlone(): Promise<string[]> {
  if (phaseBEdges) return phaseBEdges;
  const alone = await PluginDriver.start(input);
  try {
    return (phaseBEdges = edgeLines((await alone.analyze('B', listFixtures(input))).values()));
  } finally {
    await alone.stop();
  }
}

describe('lang-typescript Phase B on snapshots/input', () => {
  let driver: PluginDriver;
  let graphs: Map<string, GraphFileParams>;
  let edges: string[];

  beforeAll(async () => {
    expect(existsSync(new URL('../dist/main.js', import.meta.url)), 'build first: npm run build -w @travsr/plugin-lang-typescript').toBe(
      true,
    );
    driver = await PluginDriver.start(input);
    graphs = await driver.analyze('B', listFixtures(input));
    edges = edgeLines(graphs.values());
    phaseBEdges = edges;
  });
  afterAll(() => driver?.stop());

  it('analyzes every file, with phase-b edges of confidence 1 only', () => {
    expect([...graphs.values()].filter((g) => g.status !== 'ok').map((g) => g.path)).toEqual([]);
    const all = [...graphs.values()].flatMap((g) => g.edges);
    expect(all.length).toBeGreaterThan(40);
    expect(all.every((e) => e.provenance === 'phase-b' && e.confidence === 1)).toBe(true);
  });

  it('resolves calls through re-exports, aliases, `import * as` and tsconfig paths', () => {
    expect(edges).toContain('calls src/app.ts#main -> src/lib/shapes.ts#largest'); // export * from
    expect(edges).toContain('calls src/app.ts#fill -> src/lib/shapes.ts#Circle.constructor'); // Circle as Round
    expect(edges).toContain('calls src/app.ts#MemoryRepository.log -> src/lib/format.ts#shout'); // default re-export
    expect(edges).toContain('calls src/geometry/area.ts#report -> src/lib/shapes.ts#largest'); // lib.largest, @lib/index
    expect(edges).toContain('calls src/geometry/area.ts#report -> src/lib/format.ts#format'); // lib.formatting.format
  });

  it('sends calls of an overloaded function to its implementation', () => {
    expect(edges).toContain('calls src/app.ts#main -> src/lib/format.ts#format');
    expect(edges.filter((e) => e.includes('#format@overload'))).toEqual([]);
  });

  it('resolves this, typed parameters, interface members, generics and constructors', () => {
    expect(edges).toContain('calls src/app.ts#MemoryRepository.save -> src/app.ts#MemoryRepository.log'); // this.log
    expect(edges).toContain('calls src/app.ts#fill -> src/app.ts#Repository.save'); // interface-typed parameter
    expect(edges).toContain('calls src/app.ts#main -> src/app.ts#MemoryRepository.all'); // inferred generic instance
    expect(edges).toContain('calls src/app.ts#main -> src/app.ts#MemoryRepository'); // new without a constructor → the class
    expect(edges).toContain('calls src/lib/shapes.ts#largest -> src/lib/shapes.ts#Shape.area'); // T extends Shape
    expect(edges).toContain('calls src/lib/shapes.ts#BaseShape.describe -> src/lib/shapes.ts#BaseShape.area'); // this.area()
    expect(edges).toContain('calls src/lib/shapes.ts#Circle.constructor -> src/lib/shapes.ts#BaseShape.constructor'); // super()
    expect(edges).toContain('calls src/app.ts#fill -> src/lib/shapes.ts#Square.scale'); // static member's type
    expect(edges).toContain('calls src/geometry/area.ts#totalArea -> src/lib/shapes.ts#Shape.area'); // in a callback
    expect(edges).toContain('calls src/geometry/area.ts#unitCircle -> src/geometry/area.ts#Units.toCentimeters');
    expect(edges).toContain('calls src/app.ts#main -> src/lib/format.ts#formatters.currency'); // object-literal method
    expect(edges).toContain('calls src/components/Badge.tsx#Panel -> src/components/Badge.tsx#Badge'); // JSX
  });

  it('records heritage and type references', () => {
    expect(edges).toContain('inherits src/lib/shapes.ts#Circle -> src/lib/shapes.ts#BaseShape');
    expect(edges).toContain('implements src/lib/shapes.ts#BaseShape -> src/lib/shapes.ts#Shape');
    expect(edges).toContain('implements src/app.ts#MemoryRepository -> src/app.ts#Repository');
    expect(edges).toContain('types src/app.ts#fill -> src/app.ts#Repository');
    expect(edges).toContain('types src/app.ts#fill -> src/lib/shapes.ts#Shape');
    expect(edges).toContain('types src/lib/format.ts#withUnit -> src/lib/format.ts#Formatter');
  });

  it('links modules to the files they import, honouring paths and JavaScript requires', () => {
    expect(edges).toContain('imports src/geometry/area.ts# -> src/lib/shapes.ts#'); // @lib/shapes
    expect(edges).toContain('imports src/geometry/area.ts# -> src/lib/index.ts#');
    expect(edges).toContain('imports src/app.ts# -> src/components/Badge.tsx#');
    expect(edges).toContain('imports src/lib/index.ts# -> src/lib/format.ts#');
    // Modules outside the repository (node: built-ins, packages) get no edge.
    expect(edges.filter((e) => e.includes('node:'))).toEqual([]);
  });

  it('emits no edge to anything outside the repository', () => {
    expect(edges.filter((e) => e.includes('lib.') && e.includes('.d.ts'))).toEqual([]);
    expect(edges.filter((e) => /-> src\/[^ ]*#/.test(e) === false)).toEqual([]);
  });

  it('addresses edges at the signatures Phase A gives the nodes', async () => {
    const a = await driver.analyze('A', listFixtures(input));
    const nodes = new Set([...a.values()].flatMap((g) => g.nodes.map((n) => `${n.vname.path}#${n.vname.signature}`)));
    const ends = [...graphs.values()].flatMap((g) => g.edges.flatMap((e) => [e.src, e.dst])).map((v) => `${v.path}#${v.signature}`);
    expect(ends.filter((v) => !nodes.has(v))).toEqual([]);
  });

  it('reuses the program for the next request when nothing changed', async () => {
    const again = await driver.analyze('B', [{ path: 'src/app.ts', language: 'typescript' }]);
    expect(edgeLines(again.values())).toEqual(edges.filter((e) => e.split(' ')[1]!.startsWith('src/app.ts#')));
    expect(driver.logs.filter((l) => l.message.startsWith('program of')).length).toBe(1);
  });

  it('loads the compiler from the code cache the build stored for the flags the host starts a brief session with', () => {
    // The driver starts the plugin as the host does (launchUnsandboxed: the host's flags for this manifest).
    const loaded = driver.logs.filter((l) => l.message.startsWith('analysis half loaded'));
    expect(loaded).toEqual([expect.objectContaining({ level: 'debug', message: expect.stringMatching(/ ms, from its code cache$/) })]);
  });
});

describe('lang-typescript Phase B after Phase A in one session', () => {
  it('checks on its worker the files Phase A saw, before Phase B asks, with the same edges', async () => {
    const expected = await phaseBAlone();
    const driver = await PluginDriver.start(input);
    try {
      await driver.analyze('A', listFixtures(input));
      // The worker builds the program while Phase A runs (or right after): wait for its log line,
      // however long a loaded machine takes (the test's timeout bounds the wait).
      const built = () => driver.logs.filter((l) => l.message.startsWith('program of')).length;
      while (built() === 0) await new Promise((r) => setTimeout(r, 50));
      expect(built()).toBe(1);
      const edges = edgeLines((await driver.analyze('B', listFixtures(input))).values());
      expect(edges).toEqual(expected);
      // Phase B used that program (prefetched results or not): no second build.
      expect(built()).toBe(1);
    } finally {
      await driver.stop();
    }
  });
});

describe('lang-typescript Phase A on the analysis worker', () => {
  const phaseA = (graphs: Map<string, GraphFileParams>) =>
    JSON.stringify(
      [...graphs.values()].sort((a, b) => (a.path < b.path ? -1 : 1)).map((g) => [g.path, g.status, g.nodes, g.edges, g.refs]),
    );

  it("gives what Phase A on the main thread gives, from its own parse or from the program's trees", async () => {
    const files = listFixtures(input);
    const alone = await PluginDriver.start(input, 'test', ['A']);
    const expected = phaseA(await alone.analyze('A', files));
    await alone.stop();
    const driver = await PluginDriver.start(input);
    try {
      expect(phaseA(await driver.analyze('A', files))).toBe(expected);
      // After Phase B the trees are the program's (bound): the same again.
      await driver.analyze('B', files);
      expect(phaseA(await driver.analyze('A', files))).toBe(expected);
    } finally {
      await driver.stop();
    }
  });

  it('hands its trees to the program: the TypeScript files are parsed once', async () => {
    const files = listFixtures(input);
    const driver = await PluginDriver.start(input);
    try {
      await driver.analyze('A', files);
      await driver.analyze('B', files);
      const built = driver.logs.map((l) => /^program of .*\((\d+) parsed by Phase A\)$/.exec(l.message)).filter((m) => m !== null);
      expect(built).toHaveLength(1);
      expect(Number(built[0]![1])).toBe(files.filter((f) => /\.tsx?$/.test(f.path)).length);
    } finally {
      await driver.stop();
    }
  });

  it("reports a file it cannot read failed, with the SDK's code, and analyzes the others", async () => {
    const driver = await PluginDriver.start(input);
    try {
      const graphs = await driver.analyze('A', [
        { path: 'src/app.ts', language: 'typescript' },
        { path: 'src/missing.ts', language: 'typescript' },
        { path: 'src', language: 'typescript' },
      ]);
      expect(graphs.get('src/app.ts')!.status).toBe('ok');
      expect(graphs.get('src/missing.ts')!.status).toBe('failed');
      expect(graphs.get('src/missing.ts')!.diagnostics[0]!.code).toBe('FILE_UNREADABLE');
      expect(graphs.get('src')!.diagnostics[0]!.code).toBe('FILE_UNREADABLE');
    } finally {
      await driver.stop();
    }
  });
});

describe('lang-typescript when the host will not ask for Phase B', () => {
  it('starts no worker and builds no program (initialize.phases = ["A"])', async () => {
    const driver = await PluginDriver.start(input, 'test', ['A']);
    try {
      const graphs = await driver.analyze('A', listFixtures(input));
      expect([...graphs.values()].every((g) => g.status === 'ok')).toBe(true);
      // A worker would have built the program of these 8 files well within this time.
      await new Promise((r) => setTimeout(r, 2000));
      expect(driver.logs.filter((l) => l.message.startsWith('program of'))).toEqual([]);
    } finally {
      await driver.stop();
    }
  });
});

describe('lang-typescript Phase B across edits in one session', () => {
  it('rebuilds the program when a file changed, and only then', async () => {
    const repo = mkdtempSync(join(tmpdir(), 'lang-ts-edit-'));
    cpSync(input, repo, { recursive: true });
    const driver = await PluginDriver.start(repo);
    try {
      const app = [{ path: 'src/app.ts', language: 'typescript' }];
      const before = edgeLines((await driver.analyze('B', app)).values());
      expect(before).not.toContain('calls src/app.ts#main -> src/geometry/area.ts#unitCircle');
      writeFileSync(
        join(repo, 'src/app.ts'),
        readFileSync(join(repo, 'src/app.ts'), 'utf8')
          .replace(
            "import { report, totalArea, Unit } from './geometry/area';",
            "import { report, totalArea, unitCircle, Unit } from './geometry/area';",
          )
          .replace('fill(repo);', 'fill(repo);\n  repo.save(unitCircle());'),
      );
      const after = edgeLines((await driver.analyze('B', app)).values());
      expect(after).toContain('calls src/app.ts#main -> src/geometry/area.ts#unitCircle');
      await driver.analyze('B', app);
      expect(driver.logs.filter((l) => l.message.startsWith('program of')).length).toBe(2);
    } finally {
      await driver.stop();
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
