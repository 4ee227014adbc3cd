// The documents a newcomer reads first must not send them nowhere: every relative link in
// README.md, ARCHITECTURE.md, CONTRIBUTING.md and docs/*.md names a file that exists (and a
// heading that exists, when it names one), every repository path they quote exists (or is
// something the build or a bench makes, which git ignores), and README.md's command table
// matches the CLI: every command of host/oclif.manifest.json is named, and no row names a
// command that does not exist; its key table lists every configuration key with its variable,
// and its "Repository trust" paragraph names every security key.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONFIG_SCHEMA } from '../../host/src/config/schema.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The documents whose links are checked, relative to the repository root. */
function documents(): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
  return ['README.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md', ...docs];
}

/** The markdown outside fenced code blocks and inline code spans, where a link is a link. */
function proseOf(markdown: string): string {
  const lines: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (!fenced) lines.push(line);
  }
  // A code span is text, even when it looks like a link; a link's text may be a code span.
  return lines.join('\n').replace(/`[^`\n]*`/g, 'code');
}

/** Inline links `[text](target)`; images and reference links are not used in these documents. */
function linksOf(markdown: string): string[] {
  const prose = proseOf(markdown);
  return [...prose.matchAll(/\[(?:[^\]\n]|\][^(])*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1] ?? '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor a markdown file offers (a repeated heading gets -1, -2, … as on GitHub). */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.*)$/.exec(line);
    if (!m) continue;
    const base = slug(m[1] ?? '');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** What is wrong with one link of `doc`, or undefined when it leads somewhere. */
function brokenLink(doc: string, target: string): string | undefined {
  if (/^[a-z][a-z+.-]*:/i.test(target)) return undefined; // https:, mailto: — not ours to check
  const [path = '', anchor] = target.split('#', 2);
  const file = path === '' ? join(root, doc) : resolve(dirname(join(root, doc)), decodeURIComponent(path));
  if (!file.startsWith(root)) return `${target} leaves the repository`;
  if (!existsSync(file)) return `${target}: no such file (${relative(root, file)})`;
  if (anchor !== undefined && anchor !== '') {
    if (!statSync(file).isFile() || !file.endsWith('.md')) return `${target}: an anchor into a file that is not markdown`;
    if (!anchorsOf(file).has(anchor)) return `${target}: ${relative(root, file)} has no heading #${anchor}`;
  }
  return undefined;
}

/** The top folders of the repository: a code span starting with one of them is a path. */
const TOP_FOLDERS = ['protocol', 'sdk', 'registry', 'host', 'plugins', 'sandbox-profiles', 'test', 'docs'];

/**
 * The repository paths a document quotes in code spans (`host/src/tools/tool-runner.ts`),
 * leaving out patterns with placeholders (`plugins/<id>/`, `{a,b}.ts`, `*`).
 */
function quotedPaths(markdown: string): string[] {
  const paths = new Set<string>();
  for (const [, span = ''] of markdown.matchAll(/`([^`\n]+)`/g)) {
    const m = new RegExp(`^((?:${TOP_FOLDERS.join('|')})/[\\w./-]*)(?=$|[\\s:(])`).exec(span);
    if (m?.[1] === undefined || /[<>{}*]/.test(span.split(/\s/)[0] ?? '')) continue;
    paths.add(m[1].replace(/[.,;]+$/, ''));
  }
  return [...paths];
}

/** Of `paths` that do not exist, those git does not ignore (an ignored one is built or fetched). */
function missingPaths(paths: readonly string[]): string[] {
  const absent = paths.filter((p) => !existsSync(join(root, p)));
  if (absent.length === 0) return [];
  let ignored = '';
  try {
    ignored = execFileSync('git', ['check-ignore', '--stdin'], { cwd: root, input: absent.join('\n'), encoding: 'utf8' });
  } catch (e) {
    // Exit status 1: none of them is ignored.
    if ((e as { status?: number }).status !== 1) throw e;
  }
  const built = new Set(ignored.split('\n').filter(Boolean));
  return absent.filter((p) => !built.has(p));
}

/** The command ids of the built CLI, as users type them (`lang install`). */
function manifestCommands(): string[] {
  const path = join(root, 'host', 'oclif.manifest.json');
  if (!existsSync(path)) throw new Error(`${path} is missing: build the CLI first (npm run build -w travsr)`);
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as { commands: Record<string, unknown> };
  return Object.keys(manifest.commands).map((id) => id.replaceAll(':', ' '));
}

/** The first cells of the table under README.md's "## Commands", each a list of code spans. */
function commandTableCells(readme: string): string[][] {
  const section = readme.split(/^## /m).find((s) => s.startsWith('Commands\n'));
  if (section === undefined) throw new Error('README.md has no "## Commands" section');
  return section
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .map((row) => {
      const first = row.split(/(?<!\\)\|/)[1] ?? '';
      return [...first.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');
    });
}

/** The command a usage names: its leading words (`graph deps <symbol>` → `graph deps`). */
function commandOf(usage: string): string {
  const words: string[] = [];
  for (const w of usage.replace(/^travsr\s+/, '').split(/\s+/)) {
    if (!/^[a-z][a-z-]*$/.test(w)) break;
    words.push(w);
  }
  return words.join(' ');
}

describe('documentation links', () => {
  it('finds the documents and links to check', () => {
    const all = documents().flatMap((d) => linksOf(readFileSync(join(root, d), 'utf8')));
    // A parser that found nothing would pass every check below.
    expect(documents()).toContain('docs/writing-a-plugin.md');
    expect(all).toContain('ARCHITECTURE.md');
    expect(all.length).toBeGreaterThan(30);
  });

  for (const doc of documents()) {
    it(`every relative link of ${doc} leads to a file (and heading) that exists`, () => {
      const links = linksOf(readFileSync(join(root, doc), 'utf8'));
      const broken = links.map((l) => brokenLink(doc, l)).filter((p): p is string => p !== undefined);
      expect(broken).toEqual([]);
    });
  }

  it('reports a missing file and a missing heading', () => {
    expect(brokenLink('README.md', 'docs/no-such-file.md')).toMatch(/no such file/);
    expect(brokenLink('README.md', 'ARCHITECTURE.md#no-such-heading')).toMatch(/no heading #no-such-heading/);
    expect(brokenLink('docs/sandbox.md', '../ARCHITECTURE.md#the-trust-boundary')).toBeUndefined();
    expect(linksOf('a `[x](gone.md)` span\n```\n[y](gone.md)\n```\n[z](here.md)')).toEqual(['here.md']);
  });
});

describe('documentation paths', () => {
  for (const doc of documents()) {
    it(`every repository path ${doc} quotes exists`, () => {
      expect(missingPaths(quotedPaths(readFileSync(join(root, doc), 'utf8')))).toEqual([]);
    });
  }

  it('reads the paths out of code spans, and tells a missing path from a built one', () => {
    const text = '`host/src/tools/tool-runner.ts` (`dispatch`), `plugins/<id>/dist/main.js`, `host/nope.ts`, `sdk/src/index.ts:12`';
    expect(quotedPaths(text)).toEqual(['host/src/tools/tool-runner.ts', 'host/nope.ts', 'sdk/src/index.ts']);
    expect(missingPaths(['host/nope.ts', 'host/src/tools/tool-runner.ts', 'test/bench/results/latest.json'])).toEqual(['host/nope.ts']);
  });
});

describe('README.md and the CLI', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');

  it('names every command of the CLI in its command table', () => {
    const named = new Set(commandTableCells(readme).flatMap((cells) => cells.map(commandOf)));
    const missing = manifestCommands().filter((c) => !named.has(c));
    expect(missing).toEqual([]);
  });

  it('names no command the CLI does not have', () => {
    const commands = new Set(manifestCommands());
    const unknown = commandTableCells(readme)
      .flat()
      .map(commandOf)
      .filter((c) => !commands.has(c));
    expect(unknown).toEqual([]);
  });

  it('lists every configuration key with its environment variable, and names every security key under repository trust', () => {
    const rows = readme.split('\n').filter((l) => /^\| `[a-zA-Z.]+` +\|/.test(l));
    const trust = /\*\*Repository trust\.\*\*[^\n]*(?:\n(?!\n)[^\n]*)*/.exec(readme)?.[0] ?? '';
    const problems: string[] = [];
    for (const [key, spec] of Object.entries(CONFIG_SCHEMA)) {
      const row = rows.find((r) => r.startsWith(`| \`${key}\``));
      if (row === undefined) problems.push(`${key}: no row in the key table`);
      else if (!row.includes(`\`${spec.env}\``)) problems.push(`${key}: its row does not name ${spec.env}`);
      const named = trust.includes(`\`${key}\``) || trust.includes(`\`${key.split('.')[0] ?? ''}.*\``);
      if (spec.trust === 'security' && !named) problems.push(`${key}: a security key the "Repository trust" paragraph does not name`);
    }
    expect(trust).not.toBe('');
    expect(problems).toEqual([]);
  });
});
