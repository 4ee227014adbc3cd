import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

/*
 * A plugin is its own package, built and published alone: every package its code imports must be
 * in its package.json. In the monorepo an undeclared import still resolves (npm hoists every
 * workspace's dependencies to the root), so only this check notices. Plugins take the graph
 * types from @travsr/sdk, which re-exports them, rather than from @travsr/protocol.
 */

const PLUGINS = fileURLToPath(new URL('../../plugins/', import.meta.url));
/** The folders of a plugin whose code ships or builds it (tests run from the repository root). */
const CODE_DIRS = ['src', 'scripts'];
const CODE_FILE = /\.(?:[cm]?ts|[cm]?js)$/;

/** The package an import specifier names (`@scope/name` or `name`), or undefined for a relative path or a Node built-in. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || isBuiltin(specifier)) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function codeFiles(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return []; // a plugin without scripts/
  }
  return entries.flatMap((e) => (e.isDirectory() ? codeFiles(join(dir, e.name)) : CODE_FILE.test(e.name) ? [join(dir, e.name)] : []));
}

/** "file: package" for every import (static, dynamic, re-export) of a package the plugin's package.json does not declare. */
function undeclaredImports(pluginDir: string): string[] {
  const manifest = JSON.parse(readFileSync(join(pluginDir, 'package.json'), 'utf8')) as Record<string, unknown>;
  const declared = new Set<string>([String(manifest.name)]);
  for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
    for (const name of Object.keys((manifest[field] as Record<string, string> | undefined) ?? {})) declared.add(name);
  }
  const found: string[] = [];
  for (const file of CODE_DIRS.flatMap((d) => codeFiles(join(pluginDir, d)))) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      const pkg = packageOf(fileName);
      if (pkg !== undefined && !declared.has(pkg)) found.push(`${relative(pluginDir, file)}: ${pkg}`);
    }
  }
  return found;
}

const plugins = readdirSync(PLUGINS, { withFileTypes: true })
  .filter((e) => e.isDirectory() && readdirSync(join(PLUGINS, e.name)).includes('package.json'))
  .map((e) => e.name);

describe('plugin dependencies', () => {
  it('finds the plugins', () => {
    expect(plugins).toEqual(
      expect.arrayContaining(['lang-typescript', 'lang-python', 'lang-go', 'lang-rust', 'lang-data', 'lang-structural']),
    );
  });

  it.each(plugins)('%s imports only packages its package.json declares', (plugin) => {
    expect(undeclaredImports(join(PLUGINS, plugin))).toEqual([]);
  });

  describe('the check itself', () => {
    const dir = mkdtempSync(join(tmpdir(), 'travsr-deps-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('reports an undeclared package, however it is imported, and nothing else', () => {
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: '@travsr/plugin-x', devDependencies: { '@travsr/sdk': '0.1.0' } }));
      mkdirSync(join(dir, 'src', 'deep'), { recursive: true });
      mkdirSync(join(dir, 'scripts'));
      writeFileSync(
        join(dir, 'src', 'main.ts'),
        [
          "import { runAnalyzer } from '@travsr/sdk';",
          "import type { Node } from '@travsr/sdk';",
          "import { join } from 'node:path';",
          "import { readFileSync } from 'fs';",
          "import { helper } from './deep/helper.js';",
          "import { x } from '@travsr/plugin-x/util';",
          "import type { Edge } from '@travsr/protocol';",
          "// import { gone } from 'commented-out';",
        ].join('\n'),
      );
      writeFileSync(join(dir, 'src', 'deep', 'helper.ts'), "export { nodeId } from '@travsr/protocol/node';\n");
      writeFileSync(join(dir, 'scripts', 'build.mjs'), "const esbuild = await import('esbuild');\n");
      expect(undeclaredImports(dir).sort()).toEqual([
        'scripts/build.mjs: esbuild',
        'src/deep/helper.ts: @travsr/protocol',
        'src/main.ts: @travsr/protocol',
      ]);
    });
  });
});
