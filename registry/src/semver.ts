import { RegistryError, RegistryErrorCode } from './errors.js';

/**
 * A parsed semantic version (semver 2.0.0): `major.minor.patch[-prerelease][+build]`.
 * Numeric prerelease identifiers are numbers, the others strings; build metadata never
 * affects ordering.
 */
export interface SemVer {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  readonly prerelease: readonly (string | number)[];
  readonly build: readonly string[];
}

const NUM = '0|[1-9]\\d*';
const PRE_ID = `(?:${NUM}|\\d*[A-Za-z-][0-9A-Za-z-]*)`;
const VERSION_RE = new RegExp(
  `^(${NUM})\\.(${NUM})\\.(${NUM})(?:-(${PRE_ID}(?:\\.${PRE_ID})*))?(?:\\+([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?$`,
);
const MAX_VERSION_LENGTH = 256;

/**
 * Parses a semantic version. No leading `v`, no leading zeros, no missing parts.
 *
 * @throws RegistryError `VERSION_INVALID`
 * @example
 * ```ts
 * parseVersion('1.2.3-beta.1+abc'); // { major: 1, minor: 2, patch: 3, prerelease: ['beta', 1], build: ['abc'] }
 * ```
 */
export function parseVersion(text: string): SemVer {
  const m = text.length <= MAX_VERSION_LENGTH ? VERSION_RE.exec(text) : null;
  const nums = m ? [m[1], m[2], m[3]].map(Number) : [];
  if (!m || nums.some((n) => !Number.isSafeInteger(n))) {
    throw new RegistryError(
      RegistryErrorCode.VersionInvalid,
      `"${text.slice(0, 80)}" is not a semantic version; write it as MAJOR.MINOR.PATCH, e.g. 1.2.3 or 1.2.3-beta.1`,
    );
  }
  return {
    major: nums[0] ?? 0,
    minor: nums[1] ?? 0,
    patch: nums[2] ?? 0,
    prerelease: m[4] === undefined ? [] : m[4].split('.').map((id) => (/^\d+$/.test(id) ? Number(id) : id)),
    build: m[5] === undefined ? [] : m[5].split('.'),
  };
}

/**
 * Whether `text` is a semantic version {@link parseVersion} accepts.
 *
 * @example
 * ```ts
 * isVersion('1.2.3'); // true
 * isVersion('1.2'); // false
 * ```
 */
export function isVersion(text: string): boolean {
  try {
    parseVersion(text);
    return true;
  } catch {
    return false;
  }
}

function cmp(a: number | string, b: number | string): -1 | 0 | 1 {
  if (a === b) return 0;
  // Numeric identifiers sort before alphanumeric ones (semver 2.0.0, §11.4.3).
  if (typeof a === 'number' && typeof b === 'string') return -1;
  if (typeof a === 'string' && typeof b === 'number') return 1;
  return a < b ? -1 : 1;
}

function compareParsed(a: SemVer, b: SemVer): -1 | 0 | 1 {
  const core = cmp(a.major, b.major) || cmp(a.minor, b.minor) || cmp(a.patch, b.patch);
  if (core !== 0) return core;
  if (a.prerelease.length === 0 || b.prerelease.length === 0) {
    // A release is greater than any of its prereleases.
    return cmp(b.prerelease.length, a.prerelease.length);
  }
  for (let i = 0; i < Math.max(a.prerelease.length, b.prerelease.length); i++) {
    const x = a.prerelease[i];
    const y = b.prerelease[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const c = cmp(x, y);
    if (c !== 0) return c;
  }
  return 0;
}

/**
 * Orders two versions by semver precedence (build metadata ignored).
 *
 * @throws RegistryError `VERSION_INVALID` when either is not a version.
 * @example
 * ```ts
 * compareVersions('1.10.0', '1.9.0'); // 1
 * compareVersions('1.0.0-rc.1', '1.0.0'); // -1
 * ```
 */
export function compareVersions(a: string | SemVer, b: string | SemVer): -1 | 0 | 1 {
  return compareParsed(typeof a === 'string' ? parseVersion(a) : a, typeof b === 'string' ? parseVersion(b) : b);
}

/**
 * Sorts versions in ascending precedence, without modifying the input.
 *
 * @example
 * ```ts
 * sortVersions(['1.10.0', '1.2.0', '1.2.0-rc.1']); // ['1.2.0-rc.1', '1.2.0', '1.10.0']
 * ```
 */
export function sortVersions(versions: readonly string[]): string[] {
  return versions
    .map((v) => ({ v, p: parseVersion(v) }))
    .sort((a, b) => compareParsed(a.p, b.p))
    .map((x) => x.v);
}

type Op = '<' | '<=' | '>' | '>=' | '=';
interface Comparator {
  readonly op: Op;
  readonly version: SemVer;
}

/**
 * A parsed version range: a union (`||`) of comparator sets, each an intersection of
 * primitive comparators. An empty set matches every release.
 */
export interface VersionRange {
  readonly raw: string;
  readonly sets: readonly (readonly Comparator[])[];
}

const PARTIAL_RE = /^(\*|[xX]|0|[1-9]\d*)(?:\.(\*|[xX]|0|[1-9]\d*)(?:\.(\*|[xX]|0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?)?)?$/;

interface PartialVersion {
  major?: number;
  minor?: number;
  patch?: number;
  full?: SemVer;
}

function rangeError(raw: string, why: string): RegistryError {
  return new RegistryError(
    RegistryErrorCode.RangeInvalid,
    `"${raw.slice(0, 80)}" is not a version range (${why}); use forms like 1.2.3, ^1.2, ~1.2.3, >=1.0 <2, 1.x or *`,
  );
}

function parsePartial(raw: string, text: string): PartialVersion {
  const m = PARTIAL_RE.exec(text);
  if (!m) throw rangeError(raw, `cannot read "${text}"`);
  const part = (s: string | undefined): number | undefined => (s === undefined || /^[*xX]$/.test(s) ? undefined : Number(s));
  const major = part(m[1]);
  const minor = major === undefined ? undefined : part(m[2]);
  const patch = minor === undefined ? undefined : part(m[3]);
  if (major !== undefined && minor !== undefined && patch !== undefined) {
    let full: SemVer;
    try {
      full = parseVersion(text);
    } catch {
      throw rangeError(raw, `"${text}" is not a valid version`);
    }
    return { major, minor, patch, full };
  }
  if (m[4] !== undefined || m[5] !== undefined) throw rangeError(raw, `"${text}" has a prerelease but no patch number`);
  const p: PartialVersion = {};
  if (major !== undefined) p.major = major;
  if (minor !== undefined) p.minor = minor;
  return p;
}

function v(major: number, minor: number, patch: number, prerelease: readonly (string | number)[] = []): SemVer {
  return { major, minor, patch, prerelease, build: [] };
}

/** The smallest version above every `major.minor.patch` prerelease: `x.y.z-0`. */
function floor(major: number, minor: number, patch: number): SemVer {
  return v(major, minor, patch, [0]);
}

const NOTHING: Comparator[] = [{ op: '<', version: v(0, 0, 0, [0]) }];

function desugar(raw: string, op: string, p: PartialVersion): Comparator[] {
  const { major, minor, full } = p;
  if (major === undefined) {
    // `*` with an operator: `<*` and `>*` match nothing, everything else matches all.
    return op === '<' || op === '>' ? NOTHING : [];
  }
  const lower = full ?? v(major, minor ?? 0, 0);
  switch (op) {
    case '':
    case '=':
      if (full) return [{ op: '=', version: full }];
      return [
        { op: '>=', version: lower },
        { op: '<', version: minor === undefined ? floor(major + 1, 0, 0) : floor(major, minor + 1, 0) },
      ];
    case '>':
      if (full) return [{ op: '>', version: full }];
      return [{ op: '>=', version: minor === undefined ? v(major + 1, 0, 0) : v(major, minor + 1, 0) }];
    case '>=':
      return [{ op: '>=', version: lower }];
    case '<':
      return [{ op: '<', version: full ?? floor(major, minor ?? 0, 0) }];
    case '<=':
      if (full) return [{ op: '<=', version: full }];
      return [{ op: '<', version: minor === undefined ? floor(major + 1, 0, 0) : floor(major, minor + 1, 0) }];
    case '~':
      return [
        { op: '>=', version: lower },
        { op: '<', version: minor === undefined ? floor(major + 1, 0, 0) : floor(major, minor + 1, 0) },
      ];
    case '^': {
      let upper: SemVer;
      if (major > 0 || minor === undefined) upper = floor(major + 1, 0, 0);
      else if (minor > 0 || !full) upper = floor(0, minor + 1, 0);
      else upper = floor(0, 0, full.patch + 1);
      return [
        { op: '>=', version: lower },
        { op: '<', version: upper },
      ];
    }
    default:
      throw rangeError(raw, `unknown operator "${op}"`);
  }
}

/**
 * Parses a version range. Supported: exact (`1.2.3`, `=1.2.3`), partial and X-ranges
 * (`1`, `1.2`, `1.x`, `*`), caret (`^1.2.3`, `^0.2`), tilde (`~1.2.3`, `~1.2`),
 * comparisons (`>=1.0 <2`, `>1.2.3`, `<=2`), and unions with `||`. Hyphen ranges
 * (`1.0 - 2.0`) are refused; write `>=1.0 <=2.0`.
 *
 * Prereleases follow npm: `1.3.0-rc.1` satisfies a range only if a comparator of the same
 * set names a prerelease of 1.3.0 (`>=1.3.0-rc.0`), so `^1.2` never picks a prerelease.
 *
 * @throws RegistryError `RANGE_INVALID`
 * @example
 * ```ts
 * satisfies('1.4.0', parseRange('^1.2')); // true
 * ```
 */
export function parseRange(text: string): VersionRange {
  if (text.length > 1024) throw rangeError(text, 'longer than 1024 characters');
  const sets = text.split('||').map((setText) => {
    const normalized = setText.trim().replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1');
    if (/\s-\s/.test(` ${normalized} `)) throw rangeError(text, 'hyphen ranges are not supported');
    if (normalized === '') return [];
    return normalized.split(/\s+/).flatMap((token) => {
      const m = /^(>=|<=|>|<|=|\^|~)?(.*)$/.exec(token);
      const op = m?.[1] ?? '';
      return desugar(text, op, parsePartial(text, m?.[2] ?? ''));
    });
  });
  return { raw: text, sets };
}

function test(c: Comparator, version: SemVer): boolean {
  const r = compareParsed(version, c.version);
  switch (c.op) {
    case '<':
      return r < 0;
    case '<=':
      return r <= 0;
    case '>':
      return r > 0;
    case '>=':
      return r >= 0;
    case '=':
      return r === 0;
  }
}

function setAllows(set: readonly Comparator[], version: SemVer): boolean {
  if (!set.every((c) => test(c, version))) return false;
  if (version.prerelease.length === 0) return true;
  return set.some(
    (c) =>
      c.version.prerelease.length > 0 &&
      !(c.version.prerelease.length === 1 && c.version.prerelease[0] === 0 && c.op === '<') &&
      c.version.major === version.major &&
      c.version.minor === version.minor &&
      c.version.patch === version.patch,
  );
}

/**
 * Whether a version lies in a range (see {@link parseRange} for the syntax and the
 * prerelease rule).
 *
 * @throws RegistryError `VERSION_INVALID` or `RANGE_INVALID`
 * @example
 * ```ts
 * satisfies('1.2.9', '~1.2.3'); // true
 * satisfies('1.3.0', '~1.2.3'); // false
 * satisfies('2.0.0', '>=1.0 <2'); // false
 * ```
 */
export function satisfies(version: string | SemVer, range: string | VersionRange): boolean {
  const parsed = typeof version === 'string' ? parseVersion(version) : version;
  const r = typeof range === 'string' ? parseRange(range) : range;
  return r.sets.some((set) => setAllows(set, parsed));
}

/**
 * The highest version in `versions` that satisfies `range`, or `undefined`.
 *
 * @example
 * ```ts
 * maxSatisfying(['1.2.0', '1.9.1', '2.0.0'], '^1.2'); // '1.9.1'
 * ```
 */
export function maxSatisfying(versions: Iterable<string>, range: string | VersionRange): string | undefined {
  const r = typeof range === 'string' ? parseRange(range) : range;
  let best: { v: string; p: SemVer } | undefined;
  for (const candidate of versions) {
    const p = parseVersion(candidate);
    if (satisfies(p, r) && (!best || compareParsed(p, best.p) > 0)) best = { v: candidate, p };
  }
  return best?.v;
}
