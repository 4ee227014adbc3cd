import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { TraceRecorder } from '../../src/traces/trace.js';
import { TraceStore } from '../../src/traces/trace-store.js';
import { deferredTraceSink, persistentTraceSink } from '../../src/traces/trace-sink.js';

function sample(subject: string, error?: string) {
  const r = new TraceRecorder('plugin-session', subject);
  r.trace.tier = 'standard';
  r.trace.constraints.push({ constraint: 'network', requested: 'none', granted: 'none', ok: true });
  r.transition('launching');
  r.transition('ready');
  r.count('files', 3);
  return r.finish(error ? { code: 'PLUGIN_CRASHED', message: error } : undefined);
}

/** The ids of the traces `store` holds, sorted. */
const sortedIds = (store: TraceStore) =>
  store
    .list()
    .map((t) => t.id)
    .sort();

describe('TraceStore', () => {
  it('refuses a graph.db that is not SQLite without touching it or its -wal (SQLite would delete the -wal on close)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'travsr-traces-garbage-'));
    const db = join(dir, 'graph.db');
    writeFileSync(db, Buffer.from('garbage over the header, then the rest of the pages'));
    writeFileSync(`${db}-wal`, Buffer.from('the last commits'));
    expect(() => TraceStore.open(db)).toThrow(
      expect.objectContaining({ code: 'TRACE_STORE_UNAVAILABLE', message: expect.stringContaining('index --rebuild') }),
    );
    expect(readFileSync(`${db}-wal`, 'utf8')).toBe('the last commits');
    expect(readFileSync(db, 'utf8')).toBe('garbage over the header, then the rest of the pages');
  });

  it('keeps traces in the repository (.travsr/traces.db, not the graph store) when it has .travsr/, else in TRAVSR_HOME', () => {
    const repo = mkdtempSync(join(tmpdir(), 'travsr-trace-repo-'));
    expect(TraceStore.locate(repo)).toBe(join(process.env.TRAVSR_HOME!, 'traces.db'));
    mkdirSync(join(repo, '.travsr'));
    expect(TraceStore.locate(repo)).toBe(join(repo, '.travsr', 'traces.db'));
    expect(TraceStore.locate(undefined)).toBe(join(process.env.TRAVSR_HOME!, 'traces.db'));
  });

  it("copies the traces an earlier build kept in the graph store when it makes a repository's traces.db, once", () => {
    const repo = mkdtempSync(join(tmpdir(), 'travsr-trace-repo-'));
    mkdirSync(join(repo, '.travsr'));
    const graphDb = join(repo, '.travsr', 'graph.db');
    const [old1, old2] = [sample('lang-go@0.1.0'), sample('lang-py@0.1.0', 'exited with code 70')];
    const legacy = TraceStore.open(graphDb); // a graph.db with its v10 traces table, as earlier builds wrote it
    legacy.saveAll([old1, old2]);
    legacy.close();
    const store = TraceStore.forRepo(repo);
    expect(store.path).toBe(join(repo, '.travsr', 'traces.db'));
    expect(store.get(old1.id)).toEqual(old1);
    expect(store.list({ status: 'error' }).map((t) => t.id)).toEqual([old2.id]);
    const fresh = sample('lang-rust@0.1.0');
    store.save(fresh);
    store.close();
    // The graph store is only read; a traces.db that exists is never filled again.
    const again = TraceStore.open(graphDb);
    expect(sortedIds(again)).toEqual([old1.id, old2.id].sort());
    again.save(sample('written-later@0.1.0'));
    again.close();
    const reopened = TraceStore.forRepo(repo);
    expect(sortedIds(reopened)).toEqual([old1.id, old2.id, fresh.id].sort());
    reopened.close();
  });

  it('makes traces.db next to a graph store that is damaged or has no traces table, copying nothing and touching neither', () => {
    for (const graph of [Buffer.from('garbage over the header'), undefined]) {
      const repo = mkdtempSync(join(tmpdir(), 'travsr-trace-repo-'));
      mkdirSync(join(repo, '.travsr'));
      const graphDb = join(repo, '.travsr', 'graph.db');
      if (graph) writeFileSync(graphDb, graph);
      const store = TraceStore.forRepo(repo);
      expect(store.list()).toEqual([]);
      store.close();
      if (graph) expect(readFileSync(graphDb)).toEqual(graph);
      else expect(existsSync(graphDb)).toBe(false);
    }
  });

  it('saves, lists newest first with filters, and finds a trace by a unique id prefix', () => {
    const store = TraceStore.open(join(mkdtempSync(join(tmpdir(), 'travsr-traces-')), 'graph.db'));
    const a = sample('lang-go@0.1.0');
    const b = sample('lang-lua@1.0.0', 'exited with code 70');
    store.save(a);
    store.save(b);
    expect(store.list().map((t) => t.id)).toEqual([b.id, a.id]);
    expect(store.list({ status: 'error' }).map((t) => t.subject)).toEqual(['lang-lua@1.0.0']);
    expect(store.list({ subject: 'go' }).map((t) => t.id)).toEqual([a.id]);
    expect(store.list({ subject: '%' })).toEqual([]);
    expect(store.list({ status: 'error' })[0]?.error).toBe('PLUGIN_CRASHED: exited with code 70');
    const got = store.get(b.id.slice(0, 8));
    expect(got).toEqual(b);
    expect(got.transitions.map((t) => t.state)).toEqual(['launching', 'ready']);
    expect(got.counts.files).toBe(3);
    store.close();
  });

  it('says what to do when a trace does not exist', () => {
    const store = TraceStore.open(join(mkdtempSync(join(tmpdir(), 'travsr-traces-')), 'graph.db'));
    expect(() => store.get('deadbeef')).toThrow(/no trace deadbeef .*run `travsr trace list`/);
    store.close();
  });

  it('the persistent sink saves to the right store and never throws', () => {
    const repo = mkdtempSync(join(tmpdir(), 'travsr-trace-repo-'));
    mkdirSync(join(repo, '.travsr'));
    const t = sample('x@1.0.0');
    persistentTraceSink(repo)(t);
    const store = TraceStore.forRepo(repo);
    expect(store.get(t.id).subject).toBe('x@1.0.0');
    store.close();
    expect(() => persistentTraceSink('/proc/not-writable/here')(t)).not.toThrow();
  });

  it('saves deferred traces after the turn that made them, all of the turn in one go', async () => {
    const repo = mkdtempSync(join(tmpdir(), 'travsr-trace-repo-'));
    mkdirSync(join(repo, '.travsr'));
    const sink = deferredTraceSink(repo);
    const [a, b] = [sample('a@1.0.0'), sample('b@1.0.0')];
    sink(a);
    sink(b);
    const store = TraceStore.forRepo(repo);
    expect(() => store.get(a.id)).toThrow();
    await new Promise((resolve) => setImmediate(resolve));
    expect([store.get(a.id).subject, store.get(b.id).subject]).toEqual(['a@1.0.0', 'b@1.0.0']);
    const c = sample('c@1.0.0');
    sink(c);
    await new Promise((resolve) => setImmediate(resolve));
    expect(store.get(c.id).subject).toBe('c@1.0.0');
    store.close();
    expect(() => deferredTraceSink('/proc/not-writable/here')(c)).not.toThrow();
  });

  it("saves an index run's traces through one open store, closed a second after the last", async () => {
    const repo = mkdtempSync(join(tmpdir(), 'travsr-trace-repo-'));
    mkdirSync(join(repo, '.travsr'));
    const opened = vi.spyOn(TraceStore, 'forRepo');
    const closed = vi.spyOn(TraceStore.prototype, 'close');
    const traces = [sample('a@1.0.0'), sample('b@1.0.0'), sample('c@1.0.0')];
    // Each plugin session of a run has a sink of its own; they share the store.
    for (const t of traces) persistentTraceSink(repo)(t);
    const mine = opened.mock.calls.flatMap(([root], i) => (root === repo ? [opened.mock.results[i]!.value as TraceStore] : []));
    expect(mine).toHaveLength(1);
    const reader = TraceStore.forRepo(repo); // saved, and readable by another connection at once
    expect(traces.map((t) => reader.get(t.id).subject)).toEqual(['a@1.0.0', 'b@1.0.0', 'c@1.0.0']);
    reader.close();
    const closes = () => closed.mock.contexts.filter((store) => store === mine[0]).length;
    expect(closes()).toBe(0);
    await vi.waitFor(() => expect(closes()).toBe(1), { timeout: 10_000 });
    opened.mockRestore();
    closed.mockRestore();
  });

  it("keeps a server's store open while traces keep coming, and closes it once they stop", async () => {
    const repo = mkdtempSync(join(tmpdir(), 'travsr-trace-repo-'));
    mkdirSync(join(repo, '.travsr'));
    await new Promise((resolve) => setImmediate(resolve)); // the saves an earlier test left are done
    const opened = vi.spyOn(TraceStore, 'forRepo');
    const closed = vi.spyOn(TraceStore.prototype, 'close');
    const sink = deferredTraceSink(repo);
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    const traces = [sample('a@1.0.0'), sample('b@1.0.0'), sample('c@1.0.0')];
    for (const t of traces) {
      sink(t);
      await turn();
    }
    const mine = opened.mock.calls.flatMap(([root], i) => (root === repo ? [opened.mock.results[i]!.value as TraceStore] : []));
    expect(mine).toHaveLength(1);
    const closes = () => closed.mock.contexts.filter((store) => store === mine[0]).length;
    expect(closes()).toBe(0);
    await vi.waitFor(() => expect(closes()).toBe(1), { timeout: 10_000 });
    const store = TraceStore.forRepo(repo);
    expect(traces.map((t) => store.get(t.id).subject)).toEqual(['a@1.0.0', 'b@1.0.0', 'c@1.0.0']);
    store.close();
  });
});
