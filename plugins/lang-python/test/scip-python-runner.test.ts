import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// How the host finds the tool and what it binds into the sandbox: the real code, on the real install.
import { resolvePluginTools } from '../../../host/src/sandbox/plugin-tools.js';
import { SCIP_PYTHON_VERSION, ScipPythonError, ScipPythonUpgrade } from '../src/scip/scip-python-runner.js';
import { at, definitionAt, FACTS, installScipPython, SOURCES, writeFixture } from './scip-python-fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'scip-python-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const logs: string[] = [];
const log = (_level: string, message: string) => void logs.push(message);

/** Writes an executable stand-in for scip-python (for its failure modes only). */
function standIn(name: string, body: string): string {
  const path = join(dir, 'bin', name);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('ScipPythonUpgrade.available', () => {
  it('is off by default, says so, and names what to install when it is on but missing', () => {
    const off = ScipPythonUpgrade.available({ tools: { 'scip-python': '/x/index.js' } });
    expect(off).toEqual({
      missing: expect.stringMatching(/upgrade is off .*travsr config set plugins\.options\.lang-python\.scipPython true/) as unknown,
    });
    const missing = ScipPythonUpgrade.available({ scipPython: true, tools: {} });
    expect(missing).toEqual({ missing: expect.stringContaining('npm install -g @sourcegraph/scip-python@0.6.6') as unknown });
    expect(ScipPythonUpgrade.available({ scipPython: 'true', tools: { 'scip-python': '/x/index.js' } })).toEqual({ tool: '/x/index.js' });
  });
});

describe('ScipPythonUpgrade.run failures', () => {
  it('fails with SCIP_PYTHON_FAILED and scip-python’s own last lines, and runs again on the next call', async () => {
    const tool = standIn('failing', 'echo "Error: pyright could not start" >&2\nexit 3');
    const upgrade = new ScipPythonUpgrade(tool, { scratchDir: dir });
    const first = upgrade.run(dir, new AbortController().signal, log);
    await expect(first).rejects.toThrow(ScipPythonError);
    await expect(first).rejects.toMatchObject({
      code: 'SCIP_PYTHON_FAILED',
      message: expect.stringMatching(/exited with 3 .*pyright could not start.*native resolver/) as unknown,
    });
    // Not cached: a second call runs scip-python again (and fails again here).
    await expect(upgrade.run(dir, new AbortController().signal, log)).rejects.toThrow(/exited with 3/);
  });

  it('says plainly that scip-python ran out of memory, without its native stack trace, and names a process killed by a signal', async () => {
    // What Node.js prints when the sandbox's memory limit stops it (seen on Django with 1 GiB).
    const oom = standIn(
      'oom',
      [
        'echo "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory" >&2',
        'echo " 1: 0xb8d0a3 node::OOMErrorHandler(char const*, v8::OOMDetails const&) [/usr/bin/node]" >&2',
        'kill -ABRT $$',
      ].join('\n'),
    );
    const failed = new ScipPythonUpgrade(oom, { scratchDir: dir }).run(dir, new AbortController().signal, log);
    await expect(failed).rejects.toThrow(
      /scip-python ran out of memory \(the sandbox limits each process to the plugin's constraints\.resources\.memoryMiB/,
    );
    await expect(failed).rejects.toThrow(/: FATAL ERROR: Reached heap limit/);
    await expect(failed).rejects.not.toThrow(/OOMErrorHandler/);
    const killed = standIn('killed', 'kill -KILL $$');
    await expect(new ScipPythonUpgrade(killed, { scratchDir: dir }).run(dir, new AbortController().signal, log)).rejects.toThrow(
      /scip-python was killed by SIGKILL after \d+ s/,
    );
  });

  it('is stopped when the request is cancelled', async () => {
    const tool = standIn('hanging', 'sleep 30');
    const controller = new AbortController();
    const running = new ScipPythonUpgrade(tool, { scratchDir: dir }).run(dir, controller.signal, log);
    controller.abort();
    await expect(running).rejects.toThrow(/was stopped \(the analyze request was cancelled or ran out of time\)/);
  });

  it('logs now and then while scip-python runs, so the host does not take the plugin for hung', async () => {
    const tool = standIn('slow', 'sleep 1; exit 1');
    logs.length = 0;
    await expect(
      new ScipPythonUpgrade(tool, { scratchDir: dir, heartbeatMs: 100 }).run(dir, new AbortController().signal, log),
    ).rejects.toThrow(ScipPythonError);
    expect(logs.some((l) => /^scip-python is still indexing the repository \(\d+ s\)$/.test(l))).toBe(true);
  });
});

// ---------------------------------------------------------------- the real scip-python

const install = installScipPython();
if ('skip' in install) console.warn(`skipping the real scip-python test: ${install.skip}`);

describe.skipIf('skip' in install)(`the real scip-python ${SCIP_PYTHON_VERSION}`, () => {
  it('is found on PATH as the host finds it, indexes a package offline, and resolves its calls onto the analyzer’s nodes', async () => {
    const bin = 'bin' in install ? install.bin : '';
    const tools = resolvePluginTools({ constraints: { network: false, ipc: 'none', hostApi: false, optionalTools: ['scip-python'] } }, bin);
    const found = tools.found[0];
    expect(found?.path).toMatch(/node_modules\/@sourcegraph\/scip-python\/index\.js$/);
    // npm hoisted its declared dependencies next to it: the host binds that node_modules tree.
    expect(found?.bind).toBe(dirname(dirname(dirname(found!.path))));
    const upgrade = ScipPythonUpgrade.available({ scipPython: true, tools: { 'scip-python': found!.path } });
    expect(upgrade).toEqual({ tool: found!.path });

    const repo = join(dir, 'repo');
    writeFixture(repo);
    logs.length = 0;
    const started = performance.now();
    const runner = new ScipPythonUpgrade(found!.path, { scratchDir: dir });
    const index = await runner.run(repo, new AbortController().signal, log);
    console.info(
      `scip-python ${SCIP_PYTHON_VERSION} indexed the ${Object.keys(SOURCES).length}-file fixture in ${Math.round(performance.now() - started)} ms`,
    );
    expect(index.tool).toEqual({ name: 'scip-python', version: SCIP_PYTHON_VERSION });
    expect(index.documentCount).toBe(Object.keys(SOURCES).length);
    expect(logs.at(-1)).toMatch(/^scip-python 0\.6\.6 indexed 4 files in \d+ s$/);
    // Once per session: the second call is the same index.
    expect(await runner.run(repo, new AbortController().signal, log)).toBe(index);

    const edges = FACTS.flatMap((f) => index.callEdges(f, definitionAt)).map((e) => `${e.src.signature || '<file>'} -> ${e.dst.signature}`);
    expect(edges.sort()).toEqual(
      [
        'Ledger.__init__ -> Base.__init__', // super().__init__ in another module
        'Ledger.post -> Base.post', // super().post after "ünïcödé 😀" on the line: UTF-16 columns
        'Ledger.add -> helper',
        'Ledger.add -> Ledger.post', // self.post: the override, not Base.post
        'run -> Base.create', // a classmethod reached through the subclass imported via __init__
        'run -> Ledger.add',
        'run -> helper', // re-exported through shop/__init__.py
        'run -> run.inner',
        'run.inner -> helper',
        '<file> -> run',
      ].sort(),
    );
    const outcomes = Object.fromEntries(
      FACTS.flatMap((f) => index.resolveCalls(f, definitionAt)).map((r) => [
        `${r.site.caller.signature}:${r.site.line}:${r.site.col}`,
        r.outcome,
      ]),
    );
    const outcomeOf = (path: string, caller: string, lineHolds: string, callee: string) => {
      const p = at(path, lineHolds, callee);
      return outcomes[`${caller}:${p.line}:${p.col}`];
    };
    expect(outcomeOf('main.py', 'run', 'os.path.join', 'join')).toBe('external');
    expect(outcomeOf('shop/ledger.py', 'Ledger.add', 'self.entries.append', 'append')).toBe('external');
    expect(outcomeOf('main.py', 'run', 'pay()', 'pay')).toBe('local');
    expect(outcomeOf('shop/base.py', 'Base.create', 'return cls(name)', 'cls')).toBe('local');

    const hierarchy = FACTS.flatMap((f) => index.hierarchyEdges(f, definitionAt)).map(
      (e) => `${e.src.signature} ${e.kind} ${e.dst.signature}`,
    );
    // scip-python records no override relationship for __init__.
    expect(hierarchy.sort()).toEqual(['Ledger inherits Base', 'Ledger.post overrides Base.post']);
  }, 300_000);
});
