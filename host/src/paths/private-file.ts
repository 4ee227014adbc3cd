import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Writes a small file only its owner may read (mode 0600), whole or not at all: a temporary file
 * beside it, then renamed over it; its folder is made (mode 0700) when missing. For the caches
 * kept in the Travsr home, where a failed write only costs the next process some work: returns
 * false instead of throwing.
 *
 * @example
 * ```ts
 * writePrivateFile(join(travsrHome(), 'sandbox-probe.json'), JSON.stringify(record));
 * ```
 */
export function writePrivateFile(file: string, text: string): boolean {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(tmp, text, { mode: 0o600 });
    renameSync(tmp, file);
    return true;
  } catch {
    return false;
  }
}
