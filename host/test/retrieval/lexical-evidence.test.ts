// Step 1 of get_context on a real store: what the question's words, names, paths and quotes point at.
import { describe, expect, it } from 'vitest';
import { lexicalEvidence, lexicalSeeds } from '../../src/retrieval/lexical-evidence.js';
import { contextFixture, ENGINEERS } from './context-fixture.js';

describe('lexicalEvidence', () => {
  it('scores names and code that match the words, the best at 1, with the reason', () => {
    const { g, dense } = contextFixture();
    const e = lexicalEvidence(g, 'verify token');
    const verify = e.nodes.get(dense('verifyToken'))!;
    expect(verify.lexical).toBe(1);
    expect(verify.why).toContain('its name matches the query');
    for (const s of e.nodes.values()) expect(Math.max(s.lexical, s.body)).toBeLessThanOrEqual(1);
    expect(Math.max(...e.fileText.values())).toBe(1);
    expect(e.fileText.get('src/auth/token.ts')).toBeGreaterThan(0);
    expect(e.fileText.has('src/billing/invoice.ts')).toBe(false);
  });

  it('reads a stack trace: the file by a suffix of its path, the function it passes through at 1.5', () => {
    const { g, dense } = contextFixture();
    const e = lexicalEvidence(g, 'Traceback:\n  File "/home/ci/app/src/http/retry.ts", line 2, in retryRequest\nboom');
    expect([...e.namedFiles]).toEqual(['src/http/retry.ts']);
    const retry = e.nodes.get(dense('retryRequest'))!;
    expect(retry.mention).toBe(1.5);
    expect(retry.why).toContain("the query's stack trace passes through retryRequest");
  });

  it('finds a quoted message verbatim, and a word that names a file (1) or a directory (0.5)', () => {
    const { g } = contextFixture();
    const quoted = lexicalEvidence(g, 'I see "connection pool is full, discarding connection" in the logs');
    // Each quoted phrase (a run of words) found only there adds 1.
    expect([...quoted.quotedFiles.keys()]).toEqual(['src/http/retry.ts']);
    expect(quoted.quotedFiles.get('src/http/retry.ts')).toBeGreaterThanOrEqual(1);
    const words = lexicalEvidence(g, 'the shape of the geometry module');
    expect(words.nameWordFiles.get('src/geometry/shape.ts')).toBe(1);
    const dir = lexicalEvidence(g, 'everything in geometry');
    expect([...dir.nameWordFiles]).toEqual([['src/geometry/shape.ts', 0.5]]);
  });

  it('finds quoted code in the definitions that use it, and counts it for their source files (not tests)', () => {
    const { g, dense } = contextFixture([
      {
        path: 'src/cli/options.ts',
        lines: ['export function addOptions(parser: Parser) {', '  parser.flag("--dry-run", "print what would change");', '}'],
        defs: [{ name: 'addOptions', lines: [1, 3] }],
      },
      {
        path: 'src/cli/run.ts',
        lines: ['export function runCommand(args: string[]) {', '  return args.length;', '}'],
        defs: [{ name: 'runCommand', lines: [1, 3] }],
      },
      {
        path: 'tests/options.test.ts',
        lines: ['export function testDryRun() {', '  run(["--dry-run"]);', '}'],
        defs: [{ name: 'testDryRun', lines: [1, 3] }],
      },
    ]);
    // A hyphenated option in quoted code is one name: its words in that order.
    const e = lexicalEvidence(g, 'Please give `--dry-run` a one-letter shortcut');
    expect(e.definitionIdentifiers.get(dense('addOptions'))).toBe(1);
    expect(e.definitionIdentifiers.get(dense('testDryRun'))).toBe(1);
    expect(e.definitionIdentifiers.has(dense('runCommand'))).toBe(false);
    // Its one source file gets half of what a quoted message gives; the test quotes everything.
    expect([...e.quotedFiles]).toEqual([['src/cli/options.ts', 0.5]]);
  });

  it('counts every holder of a quoted identifier to judge it too common, those the caller may not see too', () => {
    // 41 definitions use it, 2 of them in files only finance reads: still one more than 40.
    const files = Array.from({ length: 41 }, (_, i) => ({
      path: `src/cli/command${i}.ts`,
      lines: [`export function command${i}(parser: Parser) {`, '  parser.flag("--dry-run");', '}'],
      defs: [{ name: `command${i}`, lines: [1, 3] as [number, number] }],
      ...(i < 2 ? { acl: 'finance' } : {}),
    }));
    const { seenBy } = contextFixture(files);
    const e = lexicalEvidence(seenBy(ENGINEERS), 'what does `--dry-run` do');
    expect(e.definitionIdentifiers.size).toBe(0);
    expect(e.quotedFiles.size).toBe(0);
  });

  it('holds nothing the caller may not see', () => {
    const { seenBy, dense } = contextFixture();
    const e = lexicalEvidence(seenBy(ENGINEERS), 'computeInvoiceTotal invoice total billing');
    expect(e.nodes.has(dense('computeInvoiceTotal'))).toBe(false);
    expect([...e.fileText.keys(), ...e.nameWordFiles.keys(), ...e.namedFiles]).not.toContain('src/billing/invoice.ts');
    const finance = lexicalEvidence(seenBy({ corpora: '*', groups: ['finance'] }), 'computeInvoiceTotal invoice total billing');
    expect(finance.nodes.get(dense('computeInvoiceTotal'))!.mention).toBe(1);
  });
});

describe('lexicalSeeds', () => {
  it('weighs a named definition double, and seeds the file nodes of text matches and named files', () => {
    const { g, dense } = contextFixture();
    const e = lexicalEvidence(g, 'why does `sendWithAuth` fail in src/http/client.ts');
    const seeds = lexicalSeeds(g, e);
    const send = e.nodes.get(dense('sendWithAuth'))!;
    expect(seeds.get(dense('sendWithAuth'))).toBeCloseTo(send.lexical + send.body + 2 * send.mention, 12);
    const file = dense('src/http/client.ts');
    const own = e.nodes.get(file);
    const ownWeight = own ? own.lexical + own.body + 2 * own.mention : 0;
    expect(seeds.get(file)).toBeCloseTo(ownWeight + e.fileText.get('src/http/client.ts')! + 1.5, 12);
  });
});
