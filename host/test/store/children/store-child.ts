// A second process for the concurrency and crash tests (bundled by child-process.ts).
//   write <db> <path> <nodes>   replaceFile one file of <nodes> nodes, print "done"
//   read <db>                   read-only: print the node count inside a snapshot, wait for a
//                               line on stdin, print it again (same snapshot), then once more
//                               after the snapshot
//   crash-migration <db>        migrate with one extra migration that kills the process halfway
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { GraphStore } from '../../../src/store/graph-store.js';
import { MigrationRunner } from '../../../src/store/migration-runner.js';
import { GRAPH_MIGRATIONS } from '../../../src/store/migrations/index.js';

async function main(mode: string | undefined, db: string | undefined, rest: string[]): Promise<void> {
  if (!db) throw new Error('usage: store-child <mode> <db> ...');
  if (mode === 'write') {
    const [path = 'child.ts', count = '1'] = rest;
    const store = GraphStore.open(db);
    const nodes = Array.from({ length: Number(count) }, (_, i) => ({
      vname: { corpus: 'c', root: '', path, language: 'typescript', signature: `#child${i}` },
      kind: 'function' as const,
      name: `child${i}`,
    }));
    store.replaceFile({
      path,
      sha256: 'child',
      language: 'typescript',
      phase: 'A',
      plugin: 'child@1',
      status: 'ok',
      nodes,
      edges: [],
      refs: [],
      diagnostics: [],
    });
    store.close();
    console.log('done');
  } else if (mode === 'read') {
    const store = GraphStore.open(db, { readonly: true });
    const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
    const snapshot = store.beginSnapshot();
    console.log(store.counts().nodes);
    await lines.next();
    console.log(store.counts().nodes);
    snapshot.end();
    console.log(store.counts().nodes);
    store.close();
    process.exit(0);
  } else if (mode === 'crash-migration') {
    const conn = new Database(db);
    const runner = new MigrationRunner(
      conn,
      [
        ...GRAPH_MIGRATIONS,
        {
          version: GRAPH_MIGRATIONS.length + 1,
          name: 'dies halfway',
          up: (d) => {
            d.exec('CREATE TABLE half_done (x INTEGER); INSERT INTO half_done VALUES (1);');
            d.exec('ALTER TABLE nodes ADD COLUMN half_done INTEGER');
            process.kill(process.pid, 'SIGKILL');
          },
        },
      ],
      db,
    );
    runner.run();
  } else throw new Error(`unknown mode ${mode}`);
}

const [mode, db, ...rest] = process.argv.slice(2);
main(mode, db, rest).catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
