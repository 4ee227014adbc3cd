import { RegistryError, RegistryErrorCode } from './errors.js';

const LINE_RE = /^([0-9a-f]{64}) [ *](.+)$/;

/**
 * Whether `path` is a clean relative registry path: `/`-separated, no empty, `.` or `..`
 * segment, no leading `/`, no `\`, no control characters.
 *
 * @example
 * ```ts
 * isRegistryPath('artifacts/x-1.0.0-any.tgz'); // true
 * isRegistryPath('../etc/passwd'); // false
 * ```
 */
export function isRegistryPath(path: string): boolean {
  if (path.length === 0 || path.length > 1024 || /[\\\0-\x1f\x7f]/.test(path)) return false;
  return path.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

/**
 * Parses a `SHA256SUMS` file (the format `sha256sum` writes and `sha256sum -c` reads):
 * one `<64 lowercase hex>  <relative path>` line per file.
 *
 * @throws RegistryError `SUMS_MALFORMED` naming the line.
 * @example
 * ```ts
 * parseSha256Sums('e3b0…b855  index.json\n').get('index.json'); // 'e3b0…b855'
 * ```
 */
export function parseSha256Sums(text: string): Map<string, string> {
  const sums = new Map<string, string>();
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  lines.forEach((line, i) => {
    const m = LINE_RE.exec(line);
    const fail = (why: string): never => {
      throw new RegistryError(
        RegistryErrorCode.SumsMalformed,
        `SHA256SUMS line ${i + 1} ${why}; the registry's checksum list is damaged — fetch it again, or tell the registry's maintainer`,
        { line: i + 1 },
      );
    };
    if (!m) return fail('is not "<sha256>  <path>"');
    const [, sha, path] = m as unknown as [string, string, string];
    if (!isRegistryPath(path)) return fail(`has an unsafe path "${path.slice(0, 80)}"`);
    if (sums.has(path)) return fail(`lists ${path} a second time`);
    sums.set(path, sha);
  });
  return sums;
}

/**
 * Writes a `SHA256SUMS` file: one line per entry, sorted by path, LF line ends.
 *
 * @example
 * ```ts
 * formatSha256Sums([['index.json', 'e3b0…b855']]); // 'e3b0…b855  index.json\n'
 * ```
 */
export function formatSha256Sums(entries: Iterable<readonly [path: string, sha256: string]>): string {
  const sorted = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [path, sha] of sorted) {
    if (!isRegistryPath(path) || !/^[0-9a-f]{64}$/.test(sha)) {
      throw new RegistryError(RegistryErrorCode.SumsMalformed, `cannot list "${path}" in SHA256SUMS: unsafe path or malformed checksum`);
    }
  }
  return sorted.map(([path, sha]) => `${sha}  ${path}\n`).join('');
}
