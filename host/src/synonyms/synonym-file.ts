import { TravsrError } from '@travsr/protocol';
import type { SynonymPair } from '../store/index.js';

/** Why a synonym file could not be read: what, where, and what to write instead. */
export class SynonymFileError extends TravsrError {
  override readonly name = 'SynonymFileError';
  readonly code = 'INVALID_SYNONYM_FILE';
}

/**
 * The synonym pairs of a file `travsr synonym import` reads, in one of two forms:
 *
 * - text, a line per word: `word = synonym, another synonym` (`#` starts a comment; blank
 *   lines are skipped), e.g. `cfg = config, configuration`;
 * - JSON: what `travsr synonym list --json` prints (`{"synonyms": [{"term", "synonym"}, …]}`),
 *   a bare array of such pairs, or an object of `"word": ["synonym", …]`.
 *
 * @param name where the text came from, for the error messages.
 * @throws SynonymFileError naming the line (or JSON entry) that is not in either form.
 */
export function parseSynonymFile(text: string, name: string): SynonymPair[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return fromJson(trimmed, name);
  const pairs: SynonymPair[] = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.replace(/#.*$/, '').trim();
    if (line === '') continue;
    const eq = line.indexOf('=');
    const term = eq < 0 ? '' : line.slice(0, eq).trim();
    const synonyms = eq < 0 ? [] : splitList(line.slice(eq + 1));
    if (term === '' || synonyms.length === 0)
      throw new SynonymFileError(
        `${name}:${i + 1}: ${JSON.stringify(raw.trim())} is not a synonym line; write \`word = synonym, another synonym\``,
      );
    for (const synonym of synonyms) pairs.push({ term, synonym });
  }
  return pairs;
}

function splitList(s: string): string[] {
  return s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
}

function fromJson(text: string, name: string): SynonymPair[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new SynonymFileError(`${name} is not valid JSON: ${(e as Error).message}`);
  }
  const listed = isRecord(value) && Array.isArray(value.synonyms) ? value.synonyms : value;
  if (Array.isArray(listed))
    return listed.map((p, i) => {
      if (isRecord(p) && typeof p.term === 'string' && typeof p.synonym === 'string') return { term: p.term, synonym: p.synonym };
      throw new SynonymFileError(`${name}: entry ${i + 1} is not {"term": "…", "synonym": "…"}`);
    });
  if (isRecord(listed))
    return Object.entries(listed).flatMap(([term, synonyms]) => {
      const list = typeof synonyms === 'string' ? [synonyms] : synonyms;
      if (!Array.isArray(list) || !list.every((s) => typeof s === 'string'))
        throw new SynonymFileError(`${name}: ${JSON.stringify(term)} must map to a list of words, e.g. ["config", "configuration"]`);
      return list.map((synonym) => ({ term, synonym }));
    });
  throw new SynonymFileError(`${name}: expected an object of "word": ["synonym", …] or a list of {"term", "synonym"} pairs`);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
