// The hostile plugin of test/fixtures/security, built and installed the way a user would
// install a plugin directory, and its report read back out of the graph it wrote.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { build } from 'esbuild';
import { pluginBundleOptions } from '@travsr/sdk/build';

const source = fileURLToPath(new URL('../../fixtures/security/hostile-plugin.ts', import.meta.url));

/**
 * Bundles test/fixtures/security/hostile-plugin.ts into a self-contained plugin directory
 * (manifest + `main.js`, id `hostile-probe`, claiming `.txt` files, asking for nothing
 * beyond the standard tier). Point `TRAVSR_PLUGINS_DIRS` at the returned directory.
 */
export async function buildHostilePlugin(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'travsr-hostile-plugin-'));
  mkdirSync(dir, { recursive: true });
  await build(pluginBundleOptions(source, join(dir, 'main.js'), { logLevel: 'silent' }));
  writeFileSync(
    join(dir, 'travsr-plugin.json'),
    JSON.stringify({
      id: 'hostile-probe',
      version: '1.0.0',
      languages: ['text'],
      extensions: ['.txt'],
      entrypoint: { runtime: 'node', path: 'main.js' },
      protocolVersions: ['1'],
      constraints: { network: false, ipc: 'none', hostApi: false },
    }),
  );
  return dir;
}

/** A file row of `<repo>/.travsr/graph.db`, with the report the hostile plugin left in it. */
export interface AttackedFile {
  status: string;
  reason: string | null;
  /** The plugin's report (its `attack-report:<n>` diagnostics joined), or undefined if none. */
  report: unknown;
}

/** Reads what the hostile plugin reported for `path` from the repository's graph store. */
export function readAttackedFile(repoRoot: string, path: string): AttackedFile | undefined {
  const file = join(repoRoot, '.travsr', 'graph.db');
  if (!existsSync(file)) return undefined;
  const db = new Database(file, { readonly: true });
  try {
    const row = db.prepare('SELECT status, reason, diagnostics FROM files WHERE path = ?').get(path) as
      { status: string; reason: string | null; diagnostics: string | null } | undefined;
    if (!row) return undefined;
    const chunks = (JSON.parse(row.diagnostics ?? '[]') as { code?: string; message: string }[])
      .filter((d) => d.code?.startsWith('attack-report:'))
      .sort((a, b) => Number(a.code!.split(':')[1]) - Number(b.code!.split(':')[1]))
      .map((d) => d.message);
    return { status: row.status, reason: row.reason, report: chunks.length > 0 ? JSON.parse(chunks.join('')) : undefined };
  } finally {
    db.close();
  }
}
