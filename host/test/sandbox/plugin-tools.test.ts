import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PluginManifest } from '@travsr/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaresTools, npmPackageDir, resolvePluginTools, toolBind, whichOnPath } from '../../src/sandbox/plugin-tools.js';

let dir: string;
const exe = (path: string) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, 0o755);
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'plugin-tools-'));
  exe(join(dir, 'gopath', 'bin', 'scip-go'));
  mkdirSync(join(dir, 'gopath', 'pkg', 'mod'), { recursive: true });
  exe(join(dir, 'goroot', 'bin', 'go'));
  mkdirSync(join(dir, 'goroot', 'src', 'runtime'), { recursive: true });
  exe(join(dir, 'plain', 'bin', 'tool'));
  // An npm global prefix outside /usr: the bin link points into the package, which loads dist/.
  exe(join(dir, 'npm', 'lib', 'node_modules', '@sourcegraph', 'scip-python', 'index.js'));
  mkdirSync(join(dir, 'npm', 'bin'));
  symlinkSync('../lib/node_modules/@sourcegraph/scip-python/index.js', join(dir, 'npm', 'bin', 'scip-python'));
  mkdirSync(join(dir, 'links'));
  symlinkSync(join(dir, 'goroot', 'bin', 'go'), join(dir, 'links', 'go'));
  writeFileSync(join(dir, 'links', 'not-executable'), 'x');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('whichOnPath', () => {
  it('finds executables in PATH order and skips non-executables and relative entries', () => {
    const path = ['relative/bin', join(dir, 'links'), join(dir, 'goroot', 'bin')].join(':');
    expect(whichOnPath('go', path)).toBe(join(dir, 'links', 'go'));
    expect(whichOnPath('not-executable', path)).toBeUndefined();
    expect(whichOnPath('scip-go', path)).toBeUndefined();
  });
});

describe('toolBind', () => {
  it('binds a GOPATH or GOROOT whole, a lone binary alone, and nothing under /usr', () => {
    expect(toolBind(join(dir, 'gopath', 'bin', 'scip-go'))).toBe(join(dir, 'gopath'));
    expect(toolBind(join(dir, 'goroot', 'bin', 'go'))).toBe(join(dir, 'goroot'));
    expect(toolBind(join(dir, 'plain', 'bin', 'tool'))).toBe(join(dir, 'plain', 'bin', 'tool'));
    expect(toolBind('/usr/lib/go-1.22/bin/go')).toBeUndefined();
    // Never the home directory, even when it looks like a Go workspace.
    expect(toolBind(join(dir, 'gopath', 'bin', 'scip-go'), join(dir, 'gopath'))).toBe(join(dir, 'gopath', 'bin', 'scip-go'));
  });

  it('binds the whole npm package of a script tool, scoped or not, and nothing under /usr', () => {
    expect(toolBind(join(dir, 'npm', 'lib', 'node_modules', '@sourcegraph', 'scip-python', 'index.js'))).toBe(
      join(dir, 'npm', 'lib', 'node_modules', '@sourcegraph', 'scip-python'),
    );
    expect(toolBind('/opt/n/node_modules/pyright/node_modules/x/bin/x.js')).toBe('/opt/n/node_modules/pyright/node_modules/x');
    expect(toolBind('/usr/lib/node_modules/@sourcegraph/scip-python/index.js')).toBeUndefined();
  });

  it('binds the distribution of a JDK, Maven or Gradle (bin/ beside lib/) and a .NET SDK', () => {
    mkdirSync(join(dir, 'jdk-17', 'bin'), { recursive: true });
    mkdirSync(join(dir, 'jdk-17', 'lib'), { recursive: true });
    expect(toolBind(join(dir, 'jdk-17', 'bin', 'java'))).toBe(join(dir, 'jdk-17'));
    mkdirSync(join(dir, 'dotnet', 'sdk'), { recursive: true });
    mkdirSync(join(dir, 'dotnet', 'shared'), { recursive: true });
    expect(toolBind(join(dir, 'dotnet', 'dotnet'))).toBe(join(dir, 'dotnet'));
    mkdirSync(join(dir, 'dotnet-tools', '.store', 'scip-dotnet'), { recursive: true });
    expect(toolBind(join(dir, 'dotnet-tools', 'scip-dotnet'))).toBe(join(dir, 'dotnet-tools'));
    mkdirSync(join(dir, 'sbt', 'bin'), { recursive: true });
    mkdirSync(join(dir, 'sbt', 'conf'), { recursive: true });
    expect(toolBind(join(dir, 'sbt', 'bin', 'sbt'))).toBe(join(dir, 'sbt'));
    mkdirSync(join(dir, 'pub-cache', 'bin'), { recursive: true });
    mkdirSync(join(dir, 'pub-cache', 'global_packages'), { recursive: true });
    expect(toolBind(join(dir, 'pub-cache', 'bin', 'scip_dart'))).toBe(join(dir, 'pub-cache'));
  });

  it('binds the Composer project of a PHP tool: a checkout with vendor/, or a global install', () => {
    mkdirSync(join(dir, 'scip-php', 'bin'), { recursive: true });
    mkdirSync(join(dir, 'scip-php', 'vendor'), { recursive: true });
    writeFileSync(join(dir, 'scip-php', 'vendor', 'autoload.php'), '<?php\n');
    expect(toolBind(join(dir, 'scip-php', 'bin', 'scip-php'))).toBe(join(dir, 'scip-php'));
    const global = join(dir, 'composer', 'vendor', 'davidrjenni', 'scip-php', 'bin');
    mkdirSync(global, { recursive: true });
    writeFileSync(join(dir, 'composer', 'vendor', 'autoload.php'), '<?php\n');
    expect(toolBind(join(global, 'scip-php'))).toBe(join(dir, 'composer'));
  });

  it('binds the node_modules tree of a package whose dependencies npm hoisted out of it', () => {
    const tree = join(dir, 'tools', 'node_modules');
    const pkg = join(tree, '@sourcegraph', 'scip-typescript');
    mkdirSync(join(pkg, 'dist'), { recursive: true });
    mkdirSync(join(tree, 'typescript'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ dependencies: { typescript: '^5' } }));
    expect(toolBind(join(pkg, 'dist', 'main.js'))).toBe(tree);
    // With its dependencies inside it (a global install), the package alone.
    mkdirSync(join(pkg, 'node_modules', 'typescript'), { recursive: true });
    expect(toolBind(join(pkg, 'dist', 'main.js'))).toBe(pkg);
    expect(npmPackageDir('/opt/node_modules/@scope')).toBeUndefined();
    expect(npmPackageDir('/opt/bin/tool')).toBeUndefined();
  });

  it('on macOS only /usr/bin and /bin run anyway: a Homebrew tool under /usr/local gets its own directory', () => {
    expect(toolBind('/usr/bin/git', '/Users/dev', 'darwin')).toBeUndefined();
    expect(toolBind('/usr/local/bin/tool', '/Users/dev', 'darwin')).toBe('/usr/local/bin/tool');
    expect(toolBind(join(dir, 'goroot', 'bin', 'go'), '/Users/dev', 'darwin')).toBe(join(dir, 'goroot'));
    expect(toolBind('/usr/local/bin/tool', '/home/dev', 'linux')).toBeUndefined();
  });
});

describe('resolvePluginTools', () => {
  it('resolves symlinks and lists what is missing', () => {
    const tools = resolvePluginTools(
      { constraints: { network: false, ipc: 'none', hostApi: false, tools: ['scip-go', 'go'] } },
      join(dir, 'links'),
    );
    expect(tools.missing).toEqual(['scip-go']);
    expect(tools.optionalMissing).toEqual([]);
    expect(tools.found).toEqual([{ name: 'go', path: join(dir, 'goroot', 'bin', 'go'), bind: join(dir, 'goroot') }]);
    expect(resolvePluginTools({ constraints: { network: false, ipc: 'none', hostApi: false } }, '')).toEqual({
      found: [],
      missing: [],
      optionalMissing: [],
    });
  });

  it('finds an npm bin link as the script it points to, with its package to bind', () => {
    const pkg = join(dir, 'npm', 'lib', 'node_modules', '@sourcegraph', 'scip-python');
    const tools = resolvePluginTools(
      { constraints: { network: false, ipc: 'none', hostApi: false, tools: ['scip-python'] } },
      join(dir, 'npm', 'bin'),
    );
    expect(tools).toEqual({ found: [{ name: 'scip-python', path: join(pkg, 'index.js'), bind: pkg }], missing: [], optionalMissing: [] });
  });

  it('finds optional tools like the others, but a missing one is not counted against a pass', () => {
    const manifest: Pick<PluginManifest, 'constraints'> = {
      constraints: { network: false, ipc: 'none', hostApi: false, optionalTools: ['scip-python', 'scip-go'] },
    };
    const tools = resolvePluginTools(manifest, join(dir, 'npm', 'bin'));
    expect(tools.found.map((t) => t.name)).toEqual(['scip-python']);
    expect(tools.missing).toEqual([]);
    expect(tools.optionalMissing).toEqual(['scip-go']);
    expect(declaresTools(manifest)).toBe(true);
    expect(declaresTools({ constraints: { network: false, ipc: 'none', hostApi: false } })).toBe(false);
  });
});
