// Finding 8 of issue 12: resuming a download against a server that sends one byte too many.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { travsr } from '../helpers/run-cli.js';
import { startExampleLuaRegistry, userEnv, type HostileRegistry, type SignedRegistry } from './helpers/hostile-registry.js';

let registry: SignedRegistry & HostileRegistry;
beforeAll(async () => {
  registry = await startExampleLuaRegistry();
});
afterAll(() => registry?.close());

const ARTIFACT = 'artifacts/example-lua-0.1.0-any.tgz';

describe('finding 8: Resuming a download crashes', () => {
  it('lang install refuses a resumed body one byte too long with ARTIFACT_SIZE_MISMATCH, removes the part, and installs on the next try', async () => {
    const home = mkdtempSync(join(registry.work, 'home-'));
    const artifact = readFileSync(join(registry.dir, ARTIFACT));
    const sums = readFileSync(join(registry.dir, 'SHA256SUMS'), 'utf8');
    const sha256 = /^([0-9a-f]{64}) {2}artifacts\/example-lua-0\.1\.0-any\.tgz$/m.exec(sums)?.[1];
    expect(sha256).toBeDefined();
    // What an interrupted earlier `lang install` leaves behind: all but the last few bytes, so
    // that the rest (and the byte too many) arrive with the headers, before the client refuses them.
    const downloads = join(home, 'plugins', '.downloads');
    mkdirSync(downloads, { recursive: true });
    const part = join(downloads, `example-lua-0.1.0-any-${sha256!.slice(0, 16)}.tgz.part`);
    writeFileSync(part, artifact.subarray(0, artifact.length - 10));

    registry.intercept(ARTIFACT, (req, res, bytes) => {
      if (req.headers.range === undefined) return false;
      const start = Number(/\d+/.exec(req.headers.range)?.[0]);
      const longer = Buffer.concat([bytes, Buffer.from('!')]);
      res.writeHead(206, {
        'content-range': `bytes ${start}-${longer.length - 1}/${longer.length}`,
        'content-length': longer.length - start,
      });
      res.end(longer.subarray(start));
      return true;
    });
    const r = await travsr(['lang', 'install', 'example-lua'], { cwd: home, env: userEnv(registry, home) });
    expect(r.stderr).not.toMatch(/Unhandled|UND_ERR_ABORTED/);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('ARTIFACT_SIZE_MISMATCH');
    expect(r.stderr).toContain(`${registry.url}${ARTIFACT}`);
    expect(existsSync(part)).toBe(false);
    expect(existsSync(join(home, 'plugins', 'example-lua', '0.1.0'))).toBe(false);

    registry.intercept(ARTIFACT, undefined);
    const again = await travsr(['lang', 'install', 'example-lua'], { cwd: home, env: userEnv(registry, home) });
    expect(again.code, again.stderr).toBe(0);
    expect(existsSync(join(home, 'plugins', 'example-lua', '0.1.0', 'travsr-plugin.json'))).toBe(true);
  });
});
