#!/usr/bin/env node
// Writes host/oclif.manifest.json: every command's id, flags, arguments and file, so that oclif
// imports only the module of the command being run (without it, oclif imports every command —
// the MCP SDK, the tokenizer, the registry server — before it can run any of them).
//
// Run by `npm run build -w travsr` after `tsc -b`. It first removes compiled command modules
// whose TypeScript source is gone (tsc -b never deletes outputs, and oclif finds commands by
// globbing dist/cli/commands), then lets oclif load every command once and saves what it learned.
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Plugin } from '@oclif/core';

const hostDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifestFile = join(hostDir, 'oclif.manifest.json');
const distCommands = join(hostDir, 'dist', 'cli', 'commands');
const srcCommands = join(hostDir, 'src', 'cli', 'commands');

/** Compiled files under dist/cli/commands with no `.ts` source any more (moved or deleted commands). */
function staleOutputs(dir) {
  const stale = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const abs = join(dir, entry.name);
    if (entry.isDirectory()) {
      stale.push(...staleOutputs(abs));
      continue;
    }
    const base = entry.name.replace(/\.(js|js\.map|d\.ts|d\.ts\.map)$/, '');
    if (base === entry.name) continue;
    const source = join(srcCommands, relative(distCommands, dir), `${base}.ts`);
    if (!existsSync(source)) stale.push(abs);
  }
  return stale;
}

if (!existsSync(distCommands)) {
  console.error(`oclif-manifest: ${relative(process.cwd(), distCommands)} does not exist; run \`npx tsc -b\` first`);
  process.exit(1);
}
for (const file of staleOutputs(distCommands)) rmSync(file);
rmSync(manifestFile, { force: true });

const plugin = new Plugin({ root: hostDir, type: 'core', ignoreManifest: true, errorOnManifestCreate: true, respectNoCacheDefault: true });
await plugin.load();
const manifest = plugin.manifest;
const ids = Object.keys(manifest.commands);
if (ids.length === 0) {
  console.error('oclif-manifest: oclif found no command under dist/cli/commands');
  process.exit(1);
}
// oclif lists the commands in the order their modules finished loading, which varies from run to
// run: sorted, the same commands give the same bytes, and the release pack (an input of which
// this file is) is not remade by a build that changed nothing.
const sorted = { ...manifest, commands: Object.fromEntries(ids.sort().map((id) => [id, manifest.commands[id]])) };
writeFileSync(manifestFile, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`oclif-manifest: ${ids.length} commands → ${relative(process.cwd(), manifestFile)}`);
