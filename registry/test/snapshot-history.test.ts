import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SnapshotHistory } from '../src/snapshot-history.js';
import { tempDir } from './tar-fixtures.js';

const REGISTRY = 'https://plugins.example.org/';
const MIRROR = 'https://mirror.example.org/';
const stamp = (created: string) => ({ created, keyId: 'ed25519:0123456789abcdef' });

describe('SnapshotHistory', () => {
  it('remembers the newest snapshot per registry and refuses an older one, naming both dates and the file', async () => {
    const file = join(tempDir(), 'sub', 'registry-snapshots.json');
    const history = new SnapshotHistory(file);
    await history.admit(REGISTRY, stamp('2026-03-01T00:00:00.000Z'));
    await history.admit(REGISTRY, stamp('2026-04-01T00:00:00.000Z'));
    await history.admit(REGISTRY, stamp('2026-04-01T00:00:00.000Z')); // the same snapshot again is fine
    await history.admit(MIRROR, stamp('2026-01-01T00:00:00.000Z')); // each registry on its own

    const err = await history.admit(REGISTRY, stamp('2026-03-01T00:00:00.000Z')).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'SNAPSHOT_ROLLBACK' });
    expect((err as Error).message).toContain('2026-03-01T00:00:00.000Z');
    expect((err as Error).message).toContain('2026-04-01T00:00:00.000Z');
    expect((err as Error).message).toContain(file);

    const saved = JSON.parse(readFileSync(file, 'utf8')) as { registries: Record<string, { created: string }> };
    expect(saved.registries[REGISTRY]?.created).toBe('2026-04-01T00:00:00.000Z');
    expect(saved.registries[MIRROR]?.created).toBe('2026-01-01T00:00:00.000Z');
  });

  it('refuses to work from a damaged file and leaves it as it was', async () => {
    const file = join(tempDir(), 'registry-snapshots.json');
    writeFileSync(file, '{"formatVersion": 1, "registries": {"x": {"created": "yesterday"}}}');
    const err = await new SnapshotHistory(file).admit(REGISTRY, stamp('2026-03-01T00:00:00.000Z')).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'SNAPSHOT_HISTORY_UNUSABLE' });
    expect((err as Error).message).toContain('delete it to start over');
    expect(readFileSync(file, 'utf8')).toContain('yesterday');
  });
});
