import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexerEnv } from '@travsr/sdk/scip';
import { scipGo, scipGoEnv } from '../src/scip-go-indexer.js';

const dir = mkdtempSync(join(tmpdir(), 'scip-go-env-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('scipGoEnv', () => {
  it('runs offline with caches in the scratch directory and the tools first on PATH', () => {
    const tools = { 'scip-go': '/opt/x/bin/scip-go', go: '/usr/lib/go/bin/go' };
    const env = scipGoEnv(tools, '/tmp/s', indexerEnv(tools, '/tmp/s', { PATH: '/usr/bin:/bin', HOME: '/tmp' }));
    expect(env['PATH']).toBe('/opt/x/bin:/usr/lib/go/bin:/usr/bin:/bin');
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
    const env = scipGoEnv({ 'scip-go': join(dir, 'go', 'bin', 'scip-go') }, '/tmp/s', {});
    expect(env['GOMODCACHE']).toBe(join(dir, 'go', 'pkg', 'mod'));
  });
});

describe('scipGo', () => {
  it('indexes every module holding .go files, each on its own', async () => {
    const repo = join(dir, 'repo');
    for (const [path, text] of Object.entries({
      'go.mod': 'module a\n',
      'main.go': 'package main\n',
      'tools/go.mod': 'module a/tools\n',
      'tools/gen.go': 'package tools\n',
      'docs/go.mod': 'module a/docs\n',
      'vendor/x/go.mod': 'module x\n',
      'vendor/x/x.go': 'package x\n',
    })) {
      mkdirSync(join(repo, path, '..'), { recursive: true });
      writeFileSync(join(repo, path), text);
    }
    expect(await scipGo.projects!(repo)).toEqual(['', 'tools']);
  });
});
