// Finding 7 of issue 12: a registry that answers and then drips one byte at a time.
import { existsSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { travsr } from '../helpers/run-cli.js';
import { startExampleLuaRegistry, userEnv, type HostileRegistry, type SignedRegistry } from './helpers/hostile-registry.js';

let registry: SignedRegistry & HostileRegistry;
beforeAll(async () => {
  registry = await startExampleLuaRegistry();
});
afterAll(() => registry?.close());

describe('finding 7: The registry client has no total deadline', () => {
  it('lang install stops a /SHA256SUMS that drips a byte every 200 ms at registry.deadline with REGISTRY_DEADLINE_EXCEEDED', async () => {
    const home = mkdtempSync(join(registry.work, 'home-'));
    registry.intercept('SHA256SUMS', (_req, res, bytes) => {
      // Often enough for any idle timeout; at this rate the file takes a minute or more.
      res.writeHead(200, { 'content-length': bytes.length });
      let sent = 0;
      const timer = setInterval(() => {
        if (sent < bytes.length) res.write(bytes.subarray(sent, ++sent));
      }, 200);
      res.on('close', () => clearInterval(timer));
      return true;
    });
    const r = await travsr(['lang', 'install', 'example-lua'], {
      cwd: home,
      env: userEnv(registry, home, { TRAVSR_REGISTRY_DEADLINE: '2' }),
      timeoutMs: 150_000,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('REGISTRY_DEADLINE_EXCEEDED');
    expect(r.stderr).toContain(`${registry.url}SHA256SUMS took longer than the 2 s allowed`);
    expect(existsSync(join(home, 'plugins', 'example-lua'))).toBe(false);
    // The deadline covers retries: the dripping file was not asked for again and again.
    expect(registry.requests.filter((path) => path === 'SHA256SUMS')).toHaveLength(1);
  }, 180_000);
});
