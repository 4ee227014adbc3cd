import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scipGoEnv } from '../src/scip-go-runner.js';

const dir = mkdtempSync(join(tmpdir(), 'scip-go-env-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('scipGoEnv', () => {
  it('runs offline with caches in the scratch directory and the tools first on PATH', () => {
    const env = scipGoEnv(
      { tools: { scipGo: '/opt/x/bin/scip-go', go: '/usr/lib/go/bin/go' }, scratchDir: '/tmp/s' },
      { PATH: '/usr/bin:/bin', HOME: '/tmp' },
    );
    expect(env['PATH']).toBe('/usr/lib/go/bin:/opt/x/bin:/usr/bin:/bin');
    expect(env).toMatchObject({
      GOPROXY: 'off',
      GOSUMDB: 'off',
      GOTOOLCHAIN: 'local',
      GOPATH: '/tmp/s/gopath',
      GOCACHE: '/tmp/s/gocache',
      HOME: '/tmp',
    });
    // go picks -mod=vendor for a vendored module by itself; a GOFLAGS value would override that.
    expect(env['GOFLAGS']).toBeUndefined();
    expect(env['GOMODCACHE']).toBeUndefined();
  });

  it('reads the module cache of the Go workspace scip-go was installed into', () => {
    mkdirSync(join(dir, 'go', 'bin'), { recursive: true });
    mkdirSync(join(dir, 'go', 'pkg', 'mod'), { recursive: true });
    const env = scipGoEnv({ tools: { scipGo: join(dir, 'go', 'bin', 'scip-go') }, scratchDir: '/tmp/s' }, {});
    expect(env['GOMODCACHE']).toBe(join(dir, 'go', 'pkg', 'mod'));
  });
});
