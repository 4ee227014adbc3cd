import { describe, expect, it } from 'vitest';
import { GraphStore } from '../../src/store/graph-store.js';
import { analysis, def, tempDbPath, tempStore } from './graph-fixtures.js';

function names(hits: { node: { name: string } }[]): string[] {
  return hits.map((h) => h.node.name);
}

describe('searchSymbols', () => {
  it('finds a snake_case symbol from a camelCase query and the other way round', () => {
    const store = tempStore();
    store.replaceFile(
      analysis('src/http.py', {
        language: 'python',
        nodes: [
          {
            ...def('src/http.py', '#parse_http_response'),
            vname: { ...def('src/http.py', '#parse_http_response').vname, language: 'python' },
          },
          { ...def('src/http.py', '#render_page'), vname: { ...def('src/http.py', '#render_page').vname, language: 'python' } },
        ],
      }),
    );
    store.replaceFile(
      analysis('src/client.ts', { nodes: [def('src/client.ts', '#sendHttpRequest'), def('src/client.ts', '#closeSocket')] }),
    );
    expect(names(store.searchSymbols('parseHttpResponse'))[0]).toBe('parse_http_response');
    expect(names(store.searchSymbols('ParseHTTPResponse'))[0]).toBe('parse_http_response');
    expect(names(store.searchSymbols('send_http_request'))[0]).toBe('sendHttpRequest');
    expect(names(store.searchSymbols('close-socket'))).toEqual(['closeSocket']);
    store.close();
  });

  it('ranks a symbol matching more of the query, and matches in the name above matches in the path', () => {
    const store = tempStore();
    store.replaceFile(
      analysis('src/user/service.ts', {
        nodes: [
          def('src/user/service.ts', '#loadUserProfile'),
          def('src/user/service.ts', '#loadConfig'),
          def('src/user/service.ts', '#saveProfile'),
        ],
      }),
    );
    store.replaceFile(analysis('src/other.ts', { nodes: [def('src/other.ts', '#userCount'), def('src/other.ts', '#formatDate')] }));
    const hits = store.searchSymbols('load user profile');
    expect(hits[0]?.node.name).toBe('loadUserProfile');
    expect(hits.every((h, i) => i === 0 || h.score <= hits[i - 1]!.score)).toBe(true);
    // 'user' is in the name of userCount but only in the path of loadConfig.
    const user = names(store.searchSymbols('user'));
    expect(user.indexOf('userCount')).toBeLessThan(user.indexOf('loadConfig'));
    expect(names(store.searchSymbols('format_date', { limit: 1 }))).toEqual(['formatDate']);
    store.close();
  });

  it('expands the query through synonyms in both directions, including multi-token ones', () => {
    const store = tempStore();
    store.replaceFile(
      analysis('src/security.ts', {
        nodes: [
          def('src/security.ts', '#authenticateUser'),
          def('src/security.ts', '#removeItem'),
          def('src/security.ts', '#kubernetesClient'),
        ],
      }),
    );
    expect(store.searchSymbols('auth user')[0]?.node.name).toBe('authenticateUser'); // 'user' alone
    expect(names(store.searchSymbols('auth'))).not.toContain('authenticateUser');
    store.addSynonym('auth', 'authenticate');
    store.addSynonym('delete', 'remove');
    store.addSynonym('k8s', 'kubernetes client');
    expect(names(store.searchSymbols('auth'))).toEqual(['authenticateUser']);
    expect(names(store.searchSymbols('deleteItem'))[0]).toBe('removeItem');
    expect(names(store.searchSymbols('remove'))).toEqual(['removeItem']);
    expect(names(store.searchSymbols('authenticate'))).toEqual(['authenticateUser']);
    expect(names(store.searchSymbols('k8s'))).toEqual(['kubernetesClient']);
    expect(store.listSynonyms()).toEqual([
      { term: 'auth', synonym: 'authenticate', origin: 'user' },
      { term: 'delete', synonym: 'remove', origin: 'user' },
      { term: 'k8s', synonym: 'kubernetes client', origin: 'user' },
    ]);
    expect(store.removeSynonym('remove', 'delete')).toBe(true);
    expect(names(store.searchSymbols('deleteItem'))).toEqual(['removeItem']); // still 'item'
    expect(names(store.searchSymbols('delete'))).toEqual([]);
    expect(() => store.addSynonym('auth', '--')).toThrow(/must contain letters or digits/);
    store.close();
  });

  it('filters by kind, hides tombstoned nodes and follows renames in the same transaction', () => {
    const store = tempStore();
    store.replaceFile(analysis('src/a.ts', { nodes: [def('src/a.ts', '#Parser', 'class'), def('src/a.ts', '#parser', 'function')] }));
    expect(store.searchSymbols('parser').length).toBe(2);
    expect(store.searchSymbols('parser', { kinds: ['class'] }).map((h) => h.node.kind)).toEqual(['class']);
    // The function is renamed (same VName, new name) and the class disappears.
    store.replaceFile(analysis('src/a.ts', { nodes: [{ ...def('src/a.ts', '#parser', 'function'), name: 'tokenizer' }] }));
    expect(store.searchSymbols('parser')).toEqual([]);
    expect(names(store.searchSymbols('tokenizer'))).toEqual(['tokenizer']);
    // Revived: searchable again.
    store.replaceFile(analysis('src/a.ts', { nodes: [def('src/a.ts', '#Parser', 'class')] }));
    expect(names(store.searchSymbols('parser'))).toEqual(['Parser']);
    expect(store.searchSymbols('')).toEqual([]);
    expect(store.searchSymbols('"; DROP TABLE nodes; --')).toEqual([]);
    store.close();
  });

  it('searches qualified names and skeleton text', () => {
    const store = tempStore();
    store.replaceFile(
      analysis('src/x.ts', {
        nodes: [
          def('src/x.ts', '#run', 'method', { qualifiedName: 'JobScheduler.run' }),
          def('src/x.ts', '#go', 'function', { skeleton: 'function go(): void\n/** Retries the upload with exponential backoff. */' }),
        ],
      }),
    );
    expect(names(store.searchSymbols('jobScheduler'))).toEqual(['run']);
    expect(names(store.searchSymbols('exponential backoff'))).toEqual(['go']);
    store.close();
  });

  it("scores as the one OR query of its phrases does, and follows another connection's writes", () => {
    const db = tempDbPath();
    const writer = GraphStore.open(db);
    const reader = GraphStore.open(db, { readonly: true });
    const names1 = ['loadUserProfile', 'loadConfig', 'saveProfile', 'userCount', 'profileCache', 'load'];
    writer.replaceFile(analysis('src/user/profile.ts', { nodes: names1.map((n) => def('src/user/profile.ts', `#${n}`)) }));
    writer.replaceFile(analysis('src/other.ts', { nodes: [def('src/other.ts', '#unrelatedThing'), def('src/other.ts', '#loadOther')] }));
    writer.addSynonym('cfg', 'config');
    const orQuery = (q: string) =>
      (
        writer['ctx'].db
          .prepare(
            'SELECT rowid AS id, bm25(node_fts, 10.0, 5.0, 1.5, 1.0) AS rank FROM node_fts WHERE node_fts MATCH ? ORDER BY rank, rowid',
          )
          .all(writer['symbols'].matchExpression(q)) as { id: number; rank: number }[]
      ).map((r) => [r.id, -r.rank]);
    for (const q of ['load user profile', 'cfg load', 'profile', 'load load thing']) {
      const hits = reader.searchSymbols(q, { limit: 50 });
      expect(hits.map((h) => h.node.id)).toEqual(orQuery(q).map(([id]) => id));
      hits.forEach((h, i) => expect(h.score).toBeCloseTo(orQuery(q)[i]![1]!, 9));
    }
    expect(names(reader.searchSymbols('profile cache'))[0]).toBe('profileCache');
    // Renamed by another connection: the reader's next answer has the new name.
    writer.replaceFile(
      analysis('src/user/profile.ts', {
        sha256: 'v2',
        nodes: names1.map((n) => def('src/user/profile.ts', `#${n === 'profileCache' ? 'profileStore' : n}`)),
      }),
    );
    expect(names(reader.searchSymbols('profile cache'))).not.toContain('profileCache');
    expect(names(reader.searchSymbols('profile store'))[0]).toBe('profileStore');
    reader.close();
    writer.close();
  });
});

describe('synonyms', () => {
  it('expand the BM25 over file text too, and move the graph version when they change', () => {
    const store = tempStore();
    store.replaceFile(analysis('src/settings.ts', { text: 'export function loadSettings() { readConfiguration(); }' }));
    store.replaceFile(analysis('src/other.ts', { text: 'export function renderPage() {}' }));
    expect(store.searchFiles('cfg')).toEqual([]);
    const v0 = store.graphVersion();
    expect(store.addSynonyms([{ term: 'cfg', synonym: 'configuration' }])).toBe(1);
    expect(store.graphVersion()).toBe(v0 + 1);
    expect(store.searchFiles('cfg').map((h) => h.path)).toEqual(['src/settings.ts']);
    expect(store.searchFiles('cfg', { synonyms: false })).toEqual([]);
    // Known already (in either order): nothing added, the version stays.
    expect(store.addSynonym('configuration', 'cfg')).toBe(false);
    expect(store.graphVersion()).toBe(v0 + 1);
    expect(store.removeSynonym('configuration', 'cfg')).toBe(true);
    expect(store.graphVersion()).toBe(v0 + 2);
    expect(store.removeSynonym('configuration', 'cfg')).toBe(false);
    store.close();
  });

  it('are added all or none', () => {
    const store = tempStore();
    expect(() =>
      store.addSynonyms([
        { term: 'req', synonym: 'request' },
        { term: 'x', synonym: '--' },
      ]),
    ).toThrow(/must contain letters or digits/);
    expect(store.listSynonyms()).toEqual([]);
    store.close();
  });
});

describe('synonyms of the configuration', () => {
  it('are synced: added, replaced and taken out with the setting, a user pair kept, the version moved only on a change', () => {
    const store = tempStore();
    store.addSynonym('req', 'request');
    const v0 = store.graphVersion();
    expect(
      store.syncConfigSynonyms([
        { term: 'DB', synonym: 'database' },
        { term: 'req', synonym: 'request' },
      ]),
    ).toBe(true);
    expect(store.graphVersion()).toBe(v0 + 1);
    expect(store.listSynonyms()).toEqual([
      { term: 'db', synonym: 'database', origin: 'config' },
      { term: 'req', synonym: 'request', origin: 'user' },
    ]);
    // The same setting again: nothing to do.
    expect(
      store.syncConfigSynonyms([
        { term: 'db', synonym: 'database' },
        { term: 'request', synonym: 'req' },
      ]),
    ).toBe(false);
    expect(store.graphVersion()).toBe(v0 + 1);
    // Changed: the old config pair goes, the new one comes; the user's stays.
    expect(store.syncConfigSynonyms([{ term: 'k8s', synonym: 'kubernetes' }])).toBe(true);
    expect(store.listSynonyms().map((p) => `${p.term}=${p.synonym}:${p.origin}`)).toEqual(['k8s=kubernetes:config', 'req=request:user']);
    expect(store.syncConfigSynonyms([])).toBe(true);
    expect(store.listSynonyms().map((p) => p.term)).toEqual(['req']);
    // A bad pair changes nothing.
    expect(() =>
      store.syncConfigSynonyms([
        { term: 'a', synonym: 'b' },
        { term: 'x', synonym: 'x' },
      ]),
    ).toThrow(/must contain letters or digits and differ/);
    expect(store.listSynonyms().map((p) => p.term)).toEqual(['req']);
    store.close();
  });
});
