// Item 10 of issue 12: without a lock, a replayed older signed registry snapshot was installed.
import { cpSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { publishArtifact } from '@travsr/registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { travsr } from '../helpers/run-cli.js';
import { packExampleLua, startExampleLuaRegistry, userEnv, type HostileRegistry, type SignedRegistry } from './helpers/hostile-registry.js';

let registry: SignedRegistry & HostileRegistry;
let old: string;
beforeAll(async () => {
  registry = await startExampleLuaRegistry();
  // The snapshot an attacker kept: 0.1.0 only, validly signed. The registry then moves on to 0.1.1.
  old = join(registry.work, 'old-registry');
  cpSync(registry.dir, old, { recursive: true });
  await publishArtifact(registry.dir, (await packExampleLua(registry.work, '0.1.1')).file, registry.key, {
    now: new Date(Date.now() + 60_000),
  });
});
afterAll(() => registry?.close());

const createdOf = (dir: string): string => (JSON.parse(readFileSync(join(dir, 'SHA256SUMS.sig'), 'utf8')) as { created: string }).created;

describe('finding 10: without a lock, a replayed older signed registry snapshot silently installs the older version', () => {
  it('lang install refuses a snapshot older than the newest seen from that registry (SNAPSHOT_ROLLBACK), naming both dates', async () => {
    const home = mkdtempSync(join(registry.work, 'home-'));
    const env = userEnv(registry, home);
    registry.serveFrom(registry.dir);
    const first = await travsr(['lang', 'install', 'example-lua'], { cwd: home, env });
    expect(first.code, first.stderr).toBe(0);
    expect(existsSync(join(home, 'plugins', 'example-lua', '0.1.1'))).toBe(true);

    // Outside any repository: no lock pins a version.
    registry.serveFrom(old);
    const replayed = await travsr(['lang', 'install', 'example-lua'], { cwd: home, env });
    expect(replayed.code).toBe(1);
    expect(replayed.stderr).toContain('SNAPSHOT_ROLLBACK');
    expect(replayed.stderr).toContain(createdOf(old));
    expect(replayed.stderr).toContain(createdOf(registry.dir));
    expect(existsSync(join(home, 'plugins', 'example-lua', '0.1.0'))).toBe(false);
    const history = JSON.parse(readFileSync(join(home, 'registry-snapshots.json'), 'utf8')) as {
      registries: Record<string, { created: string }>;
    };
    expect(history.registries[registry.url]?.created).toBe(createdOf(registry.dir));

    // The real registry is still welcome.
    registry.serveFrom(registry.dir);
    const again = await travsr(['lang', 'install', 'example-lua'], { cwd: home, env });
    expect(again.code, again.stderr).toBe(0);
  });
});
