// Phase A on a small crate of our own: every item with its qualified path, range and skeleton,
// and every ref as written, annotated onto the sources in snapshots/output.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { snapshotTest } from '@travsr/sdk/testing';

const pluginDir = fileURLToPath(new URL('..', import.meta.url));
const read = (p: string) => readFileSync(new URL(`../snapshots/output/${p}`, import.meta.url), 'utf8');

describe('lang-rust snapshots', () => {
  it('matches the golden annotated sources in snapshots/output (Phase A)', async () => {
    expect(existsSync(new URL('../dist/main.js', import.meta.url)), 'build first: npm run build -w @travsr/plugin-lang-rust').toBe(true);
    const result = await snapshotTest({
      pluginDir,
      updateCommand: 'TRAVSR_UPDATE_SNAPSHOTS=1 npx vitest run plugins/lang-rust/test/snapshot.test.ts',
      timeoutMs: 60_000,
    });
    expect(result.files.map((f) => f.path).sort()).toEqual(['src/format.rs', 'src/lib.rs', 'src/store/memory.rs', 'src/store/mod.rs']);
  }, 120_000);

  it('names items by their path in the file, keeps attributes and doc comments in skeletons, and reads past a syntax error', () => {
    const lib = read('src/lib.rs');
    expect(lib).toMatch(/definition module <module> \(name ledger\)/);
    expect(lib).toMatch(/definition struct Account\b/);
    expect(lib).toMatch(/definition method Account::open\b/);
    expect(lib).toMatch(/definition constant Posting::Credit\b/);
    expect(lib).toMatch(/definition macro audit\b/);
    expect(lib).toMatch(/definition function tests::posts\b/);
    expect(lib).toMatch(/reference calls format::too_large \(from Account::post\)/);
    expect(read('src/store/mod.rs')).toMatch(/definition trait Store\b/);
    const memory = read('src/store/memory.rs');
    expect(memory).toMatch(/definition module <module> \(name memory\)/);
    expect(memory).toMatch(/definition method <Memory as Store>::load\b/);
    expect(memory).toContain('PARSE_ERROR');
    expect(memory).toMatch(/definition function after_the_break\b/);
    expect(lib).not.toContain('PARSE_ERROR');
  });
});
