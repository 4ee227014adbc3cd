import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from './atomic-write.js';
import { RegistryError, RegistryErrorCode } from './errors.js';

/** A registry's signed snapshot as the history sees it: `created` and `keyId` of `SHA256SUMS.sig`. */
export interface SnapshotStamp {
  /** Signed signing time (ISO 8601). */
  readonly created: string;
  readonly keyId: string;
}

interface HistoryFile {
  formatVersion: 1;
  /** Registry location (URL or directory) → the newest snapshot seen from it. */
  registries: Record<string, SnapshotStamp>;
}

/**
 * Remembers, per registry, the newest signed snapshot this machine has seen, in one JSON file
 * (`{ formatVersion: 1, registries: { <location>: { created, keyId } } }`), so that an older
 * snapshot — validly signed, but replayed to hold back a fix — is refused even when no lock
 * file pins a version. Signatures alone cannot tell: an old snapshot stays validly signed.
 *
 * @example
 * ```ts
 * const history = new SnapshotHistory(join(home, 'registry-snapshots.json'));
 * await history.admit('https://plugins.example.org/', { created: sums.created, keyId: sums.keyId });
 * ```
 */
export class SnapshotHistory {
  constructor(readonly file: string) {}

  /**
   * Refuses a snapshot of `registry` signed before the newest one seen from it, and remembers
   * `stamp` when it is the newest so far.
   *
   * @throws RegistryError `SNAPSHOT_ROLLBACK` (naming both dates), `SNAPSHOT_HISTORY_UNUSABLE`.
   */
  async admit(registry: string, stamp: SnapshotStamp): Promise<void> {
    const offered = Date.parse(stamp.created);
    const seen = (await this.read()).registries[registry];
    if (seen !== undefined && offered < Date.parse(seen.created)) {
      throw new RegistryError(
        RegistryErrorCode.SnapshotRollback,
        `the registry at ${registry} offers a snapshot signed ${stamp.created} (key ${stamp.keyId}), older than the one signed ${seen.created} (key ${seen.keyId}) that this machine already saw there: an old registry is being replayed to hold back updates, or a mirror is behind; nothing was installed — try again later or use another mirror, and if the registry went back on purpose, remove its entry from ${this.file}`,
        { registry, offered: stamp.created, seen: seen.created, file: this.file },
      );
    }
    if (seen !== undefined && offered === Date.parse(seen.created)) return;
    // Read again just before writing: another process may have recorded a newer snapshot meanwhile.
    const latest = await this.read();
    const now = latest.registries[registry];
    if (now !== undefined && Date.parse(now.created) >= offered) return;
    latest.registries[registry] = { created: stamp.created, keyId: stamp.keyId };
    try {
      await writeFileAtomic(this.file, `${JSON.stringify(latest, null, 2)}\n`);
    } catch (e) {
      throw new RegistryError(
        RegistryErrorCode.SnapshotHistoryUnusable,
        `cannot write ${this.file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}), where Travsr remembers the newest registry snapshot it has seen; check that the directory is writable and the disk not full, then try again`,
        { file: this.file },
      );
    }
  }

  private async read(): Promise<HistoryFile> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { formatVersion: 1, registries: {} };
      throw this.unusable(`cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw this.unusable('is not valid JSON');
    }
    if (!isHistoryFile(parsed)) throw this.unusable('does not have the expected shape');
    return parsed;
  }

  private unusable(why: string): RegistryError {
    return new RegistryError(
      RegistryErrorCode.SnapshotHistoryUnusable,
      `${this.file}, where Travsr remembers the newest registry snapshot it has seen, ${why}; fix it, or delete it to start over (older registry snapshots are then accepted once more until newer ones are seen)`,
      { file: this.file },
    );
  }
}

function isHistoryFile(value: unknown): value is HistoryFile {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { formatVersion?: unknown; registries?: unknown };
  if (v.formatVersion !== 1 || typeof v.registries !== 'object' || v.registries === null || Array.isArray(v.registries)) return false;
  return Object.values(v.registries as Record<string, unknown>).every((s) => {
    const stamp = s as { created?: unknown; keyId?: unknown } | null;
    return (
      typeof stamp === 'object' &&
      stamp !== null &&
      typeof stamp.created === 'string' &&
      !Number.isNaN(Date.parse(stamp.created)) &&
      typeof stamp.keyId === 'string'
    );
  });
}
