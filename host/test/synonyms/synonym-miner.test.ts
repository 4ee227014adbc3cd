// `travsr synonym mine`: the pairs the repository's own definitions suggest, and the words it must not take for abbreviations.
import { describe, expect, it } from 'vitest';
import { abbreviates, mineSynonyms } from '../../src/synonyms/synonym-miner.js';
import { contextFixture, type SourceFile } from '../retrieval/context-fixture.js';

/** A file of one function whose body is `body`. */
function fn(name: string, body: string): SourceFile {
  return { path: `src/${name}.py`, lines: [`def ${name}():`, `    ${body}`], defs: [{ name, lines: [1, 2] }] };
}

describe('abbreviates', () => {
  it('takes first letters and first-letter consonant skeletons, not a word with an ending or a word of prose', () => {
    expect(abbreviates('req', 'request')).toBe(true);
    expect(abbreviates('cfg', 'config')).toBe(true);
    expect(abbreviates('msg', 'message')).toBe(true);
    expect(abbreviates('sock', 'socket')).toBe(true);
    expect(abbreviates('run', 'running')).toBe(false); // an ending, the consonant doubled
    expect(abbreviates('add', 'added')).toBe(false);
    expect(abbreviates('for', 'format')).toBe(false); // a word of prose
    expect(abbreviates('db', 'database')).toBe(false); // two letters: the common list only
    expect(abbreviates('cfg', 'cfgs')).toBe(false); // a long form must be longer by two letters at least
    expect(abbreviates('cgf', 'config')).toBe(false); // out of order
    expect(abbreviates('aeg', 'average')).toBe(false); // a vowel after the first letter is no skeleton
  });
});

describe('mineSynonyms', () => {
  it('proposes common abbreviations whose forms meet, and abbreviations that meet their long form far more often than chance', () => {
    const files: SourceFile[] = [
      fn('load_settings', 'cfg = read_config(path)'),
      ...Array.from({ length: 4 }, (_, i) => fn(`open_channel_${i}`, `sock = make_socket(host) if sock is None else sock`)),
      ...Array.from({ length: 4 }, (_, i) => fn(`serve_${i}`, `sendfile(send_buffer, file)`)),
      ...Array.from({ length: 4 }, (_, i) => fn(`start_${i}`, `running = run(task) for task in tasks`)),
      ...Array.from({ length: 30 }, (_, i) => fn(`render_page_${i}`, `return html(view, ${i})`)),
    ];
    const fx = contextFixture(files);
    const proposals = mineSynonyms(fx.store);
    const pairs = proposals.map((p) => `${p.term}=${p.synonym}`);
    expect(pairs).toContain('cfg=config');
    expect(proposals.find((p) => p.term === 'cfg')?.reason).toBe('common abbreviation');
    expect(pairs).toContain('sock=socket');
    expect(proposals.find((p) => p.term === 'sock')).toMatchObject({ together: 4, reason: 'abbreviation found in this code' });
    expect(proposals.find((p) => p.term === 'sock')!.lift).toBeGreaterThanOrEqual(10);
    expect(pairs).not.toContain('send=sendfile'); // `send` + `file`, both words of the code
    expect(pairs).not.toContain('run=running');
    expect(pairs).not.toContain('for=format');

    // Known pairs are not proposed again; a stricter lift drops the ones found here.
    fx.store.addSynonym('config', 'cfg');
    expect(mineSynonyms(fx.store).map((p) => `${p.term}=${p.synonym}`)).not.toContain('cfg=config');
    expect(mineSynonyms(fx.store, { minLift: 1000 }).filter((p) => p.reason !== 'common abbreviation')).toEqual([]);
  });

  it('has nothing to propose for an empty graph', () => {
    expect(mineSynonyms(contextFixture([]).store)).toEqual([]);
  });
});
