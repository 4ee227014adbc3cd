import type { GraphStore } from '../store/index.js';

/** A pair `travsr synonym mine` proposes, with what speaks for it. */
export interface SynonymProposal {
  /** The short form (`cfg`). */
  term: string;
  /** The form it stands for (`config`). */
  synonym: string;
  /** Definitions whose text holds both. */
  together: number;
  /** How much more often the two meet in one definition than chance would make them (≥ 1 when related). */
  lift: number;
  /** Why it is proposed. */
  reason: 'common abbreviation' | 'abbreviation found in this code';
}

/** Options of {@link mineSynonyms}. */
export interface MineOptions {
  /** Definitions that must hold both words of a mined pair (default 3). */
  minTogether?: number;
  /** How much more often than chance they must meet (default 10). */
  minLift?: number;
  /** Long forms proposed for one short form at most (default 2). */
  perTerm?: number;
}

/**
 * Abbreviations programmers write everywhere, with the words they stand for: proposed when both
 * forms occur in the repository's definitions and meet in one at least once.
 */
export const COMMON_ABBREVIATIONS: Readonly<Record<string, readonly string[]>> = {
  addr: ['address'],
  arg: ['argument'],
  args: ['arguments'],
  attr: ['attribute'],
  attrs: ['attributes'],
  auth: ['authentication', 'authorization'],
  btn: ['button'],
  buf: ['buffer'],
  cb: ['callback'],
  cfg: ['config', 'configuration'],
  cmd: ['command'],
  cnt: ['count'],
  col: ['column'],
  conf: ['config', 'configuration'],
  config: ['configuration'],
  conn: ['connection'],
  ctx: ['context'],
  cur: ['current', 'cursor'],
  db: ['database'],
  del: ['delete'],
  desc: ['description'],
  dest: ['destination'],
  dir: ['directory'],
  doc: ['document', 'documentation'],
  dst: ['destination'],
  elem: ['element'],
  env: ['environment'],
  err: ['error'],
  exc: ['exception'],
  exe: ['executable'],
  fmt: ['format'],
  fn: ['function'],
  func: ['function'],
  hdr: ['header'],
  idx: ['index'],
  img: ['image'],
  impl: ['implementation'],
  info: ['information'],
  init: ['initialize', 'initialise'],
  lib: ['library'],
  len: ['length'],
  mgr: ['manager'],
  msg: ['message'],
  num: ['number'],
  obj: ['object'],
  opt: ['option'],
  opts: ['options'],
  param: ['parameter'],
  params: ['parameters'],
  pkg: ['package'],
  pos: ['position'],
  prev: ['previous'],
  proc: ['process'],
  prop: ['property'],
  props: ['properties'],
  ref: ['reference'],
  repo: ['repository'],
  req: ['request'],
  res: ['response', 'result'],
  resp: ['response'],
  ret: ['return'],
  sep: ['separator'],
  spec: ['specification'],
  src: ['source'],
  stmt: ['statement'],
  str: ['string'],
  sys: ['system'],
  tmp: ['temporary'],
  util: ['utility'],
  utils: ['utilities'],
  val: ['value'],
  var: ['variable'],
  ver: ['version'],
};

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);
// A short form that is the long one with an ending is the same word, not an abbreviation of it.
const ENDINGS = new Set([
  's',
  'es',
  'ed',
  'd',
  'er',
  'ers',
  'ing',
  'ings',
  'ion',
  'ions',
  'ly',
  'al',
  'able',
  'ive',
  'ful',
  'ness',
  'less',
  'ment',
  'ments',
]);

/** True when `long` is `short` with an ending (a doubled last consonant too: run → running). */
function isInflection(short: string, long: string): boolean {
  let rest = long.slice(short.length);
  if (rest.length >= 2 && rest[0] === short.at(-1) && !VOWELS.has(rest[0]!)) rest = rest.slice(1);
  return ENDINGS.has(rest);
}
// English words of prose, common in comments and docstrings: never read as abbreviations there.
const PROSE = new Set(
  (
    'a about above after again all also am an and any are as at be been before being below both but by can cannot could did do does ' +
    'done each else even ever every few for from further had has have he her here him his how if in into is it its just least less ' +
    'like made make many may me more most much must my new no nor not now of off often old on once one only or other our out over own ' +
    'per same see set she should since so some still such than that the their them then there these they this those though through ' +
    'thus to too two under until up upon us use used very via was way we well were what when where whether which while who why will ' +
    'with within without would yet you your'
  ).split(' '),
);

/**
 * True when `short` may be an abbreviation of `long` by how programmers shorten words: its
 * first letters (`req` → `request`, three letters at least, not the word with an ending), or
 * its first letter and then consonants of it in order (`cfg` → `config`, `msg` → `message`).
 */
export function abbreviates(short: string, long: string): boolean {
  if (short.length < 3 || long.length < short.length + 2 || short[0] !== long[0] || PROSE.has(short)) return false;
  if (!/^[a-z]+$/.test(short) || !/^[a-z]+$/.test(long)) return false;
  if (long.startsWith(short)) return !isInflection(short, long);
  let j = 1;
  for (const ch of short.slice(1)) {
    if (VOWELS.has(ch)) return false;
    while (j < long.length && long[j] !== ch) j++;
    if (j === long.length) return false;
    j++;
  }
  return true;
}

/**
 * Synonym pairs the repository's own code suggests, for review (`travsr synonym mine`): the
 * {@link COMMON_ABBREVIATIONS} whose two forms both occur, and the short words that
 * {@link abbreviates | abbreviate} a longer word and meet it in the same definitions far more
 * often than chance (`cfg` in the functions that take a `Config`). Pairs the store knows already
 * are left out. Best evidence first.
 */
export function mineSynonyms(store: GraphStore, opts: MineOptions = {}): SynonymProposal[] {
  const minTogether = opts.minTogether ?? 3;
  const minLift = opts.minLift ?? 10;
  const perTerm = opts.perTerm ?? 2;
  const docs: string[][] = [];
  const df = new Map<string, number>();
  store.forEachDefinitionText((text) => {
    const words = [...new Set(text.split(' '))].filter((w) => w !== '');
    docs.push(words);
    for (const w of words) df.set(w, (df.get(w) ?? 0) + 1);
  });
  if (docs.length === 0) return [];

  // Candidate long forms of each short word: the common list, and the shapes of abbreviation.
  const candidates = new Map<string, Map<string, SynonymProposal['reason']>>();
  const want = (short: string, long: string, reason: SynonymProposal['reason']) => {
    let m = candidates.get(short);
    if (!m) candidates.set(short, (m = new Map<string, SynonymProposal['reason']>()));
    if (!m.has(long)) m.set(long, reason);
  };
  for (const [short, longs] of Object.entries(COMMON_ABBREVIATIONS))
    if (df.has(short)) for (const long of longs) if (df.has(long)) want(short, long, 'common abbreviation');
  const frequent = [...df].filter(([w, n]) => n >= minTogether && /^[a-z]+$/.test(w)).map(([w]) => w);
  const byInitial = new Map<string, string[]>();
  for (const w of frequent) {
    const same = byInitial.get(w[0]!);
    if (same) same.push(w);
    else byInitial.set(w[0]!, [w]);
  }
  for (const short of frequent) {
    if (short.length > 5) continue;
    for (const long of byInitial.get(short[0]!) ?? [])
      if (abbreviates(short, long) && !isCompound(short, long, df)) want(short, long, 'abbreviation found in this code');
  }

  // How often each candidate pair meets in one definition.
  const together = new Map<string, number>();
  for (const words of docs) {
    const here = new Set(words);
    for (const w of words) {
      const longs = candidates.get(w);
      if (!longs) continue;
      for (const long of longs.keys()) if (here.has(long)) together.set(`${w} ${long}`, (together.get(`${w} ${long}`) ?? 0) + 1);
    }
  }

  const known = new Set(store.listSynonyms().flatMap((p) => [`${p.term} ${p.synonym}`, `${p.synonym} ${p.term}`]));
  const out: SynonymProposal[] = [];
  for (const [short, longs] of candidates) {
    const proposals: SynonymProposal[] = [];
    for (const [long, reason] of longs) {
      const both = together.get(`${short} ${long}`) ?? 0;
      const lift = (both * docs.length) / (df.get(short)! * df.get(long)!);
      const strong = reason === 'common abbreviation' ? both >= 1 : both >= minTogether && lift >= minLift;
      if (strong && !known.has(`${short} ${long}`))
        proposals.push({ term: short, synonym: long, together: both, lift: Math.round(lift * 10) / 10, reason });
    }
    proposals.sort((a, b) => b.together - a.together || b.lift - a.lift || (a.synonym < b.synonym ? -1 : 1));
    // The common list is curated: all of it; the shapes found here: the best few.
    out.push(...proposals.filter((p) => p.reason === 'common abbreviation'));
    out.push(...proposals.filter((p) => p.reason !== 'common abbreviation').slice(0, perTerm));
  }
  return out.sort((a, b) => b.together - a.together || (a.term < b.term ? -1 : a.term > b.term ? 1 : a.synonym < b.synonym ? -1 : 1));
}

/** True when `long` is `short` and another word of the code run together (`send` + `file`, `http` + `only`). */
function isCompound(short: string, long: string, df: ReadonlyMap<string, number>): boolean {
  if (!long.startsWith(short)) return false;
  const rest = long.slice(short.length);
  return rest.length >= 3 && df.has(rest);
}
