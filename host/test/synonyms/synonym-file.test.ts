// The files `travsr synonym import` reads: text lines or JSON, with errors that say where and what to write.
import { describe, expect, it } from 'vitest';
import { parseSynonymFile, SynonymFileError } from '../../src/synonyms/synonym-file.js';

describe('parseSynonymFile', () => {
  it('reads text lines of `word = synonym, synonym`, skipping comments and blank lines', () => {
    const text = '# team vocabulary\ncfg = config, configuration\n\nreq = request   # HTTP\r\nk8s = kubernetes client\n';
    expect(parseSynonymFile(text, 'syn.txt')).toEqual([
      { term: 'cfg', synonym: 'config' },
      { term: 'cfg', synonym: 'configuration' },
      { term: 'req', synonym: 'request' },
      { term: 'k8s', synonym: 'kubernetes client' },
    ]);
    expect(parseSynonymFile('', 'empty.txt')).toEqual([]);
  });

  it('reads what `synonym list --json` prints, a bare list of pairs, and an object of word → synonyms', () => {
    const pairs = [
      { term: 'auth', synonym: 'authentication' },
      { term: 'db', synonym: 'database' },
    ];
    expect(parseSynonymFile(JSON.stringify({ synonyms: pairs }), 'a.json')).toEqual(pairs);
    expect(parseSynonymFile(JSON.stringify(pairs), 'b.json')).toEqual(pairs);
    expect(parseSynonymFile('{"auth": ["authentication"], "db": "database"}', 'c.json')).toEqual(pairs);
  });

  it('names the line or entry that is in neither form', () => {
    expect(() => parseSynonymFile('cfg = config\njust words\n', 'syn.txt')).toThrow(/syn\.txt:2: "just words" is not a synonym line/);
    expect(() => parseSynonymFile('cfg =\n', 'syn.txt')).toThrow(SynonymFileError);
    expect(() => parseSynonymFile('{"cfg": [1]}', 'x.json')).toThrow(/"cfg" must map to a list of words/);
    expect(() => parseSynonymFile('[{"term": "a"}]', 'x.json')).toThrow(/entry 1 is not/);
    expect(() => parseSynonymFile('{"cfg": ', 'x.json')).toThrow(/x\.json is not valid JSON/);
    try {
      parseSynonymFile('nope', 'n.txt');
    } catch (e) {
      expect((e as SynonymFileError).code).toBe('INVALID_SYNONYM_FILE');
    }
  });
});
