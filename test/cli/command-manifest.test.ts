// The CLI starts by reading host/oclif.manifest.json (written by `npm run build -w @travsr/host`)
// and imports only the module of the command being run. A command whose module is missing from
// the manifest would not exist for users, so the manifest must list exactly the command modules
// under host/src/cli/commands, each with the id its path gives.
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { travsr } from '../helpers/run-cli.js';

const hostDir = fileURLToPath(new URL('../../host/', import.meta.url));

/** `lang/install.ts` → `lang:install`; `index/index.ts` → `index` (oclif's rule for index files). */
function commandIds(dir: string): string[] {
  const ids: string[] = [];
  const visit = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const abs = join(d, e.name);
      if (e.isDirectory()) visit(abs);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) {
        const parts = relative(dir, abs).replace(/\.ts$/, '').split('/');
        if (parts[parts.length - 1] === 'index') parts.pop();
        ids.push(parts.join(':'));
      }
    }
  };
  visit(dir);
  return ids.sort();
}

describe('the command manifest', () => {
  it('lists every command module under src/cli/commands, and nothing else', () => {
    const manifest = JSON.parse(readFileSync(join(hostDir, 'oclif.manifest.json'), 'utf8')) as {
      commands: Record<string, { relativePath: string[]; isESM: boolean }>;
    };
    expect(Object.keys(manifest.commands).sort()).toEqual(commandIds(join(hostDir, 'src', 'cli', 'commands')));
    for (const [id, c] of Object.entries(manifest.commands)) {
      expect(c.isESM, id).toBe(true);
      expect(c.relativePath.slice(0, 3), id).toEqual(['dist', 'bundle', 'commands']);
    }
  });

  it('`travsr --version` (answered before oclif loads) prints what oclif printed: name/version platform-arch node-version', async () => {
    const { version } = JSON.parse(readFileSync(join(hostDir, 'package.json'), 'utf8')) as { version: string };
    const r = await travsr(['--version']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(`travsr/${version} ${process.platform}-${process.arch} node-${process.version}`);
  });

  it('a command runs from it: help of a nested command, and of `index`', async () => {
    const install = await travsr(['lang', 'install', '--help']);
    expect(install.code, install.stderr).toBe(0);
    expect(install.stdout).toMatch(/USAGE\s+\$ travsr lang install/);
    const index = await travsr(['index', '--help']);
    expect(index.code, index.stderr).toBe(0);
    expect(index.stdout).toMatch(/USAGE\s+\$ travsr index/);
  });

  it('hook-run and status start without oclif, and leave what they do not take to it (help, usage errors)', async () => {
    for (const command of ['hook-run', 'status']) {
      const help = await travsr([command, '--help']);
      expect(help.code, help.stderr).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`USAGE\\s+\\$ travsr ${command}`));
      const bad = await travsr([command, '--bogus']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/Nonexistent flag: --bogus/);
      const outside = await travsr([command, tmpdir()]);
      expect(outside.code).toBe(1);
      expect(outside.stderr).toMatch(/^Error \[NOT_INITIALIZED\]: /m);
    }
  });
});
