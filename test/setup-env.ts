// Every test file gets its own ~/.travsr, so tests never read or write the user's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

if (!process.env.TRAVSR_TEST_KEEP_HOME) {
  const home = mkdtempSync(join(tmpdir(), 'travsr-home-'));
  process.env.TRAVSR_HOME = home;
  // Gone once the file is done (some 300 directories a run were left in the temporary directory).
  // afterAll hooks run last registered first: the file's own, which stop the daemons and
  // servers that use this home, have run by then.
  afterAll(() => rmSync(home, { recursive: true, force: true }));
}

// The CLI, git hooks and the other processes tests start run as on a user's machine. Vitest sets
// NODE_ENV=test, with which oclif ignores host/oclif.manifest.json and imports every command at
// each start (about 0.4 s more per command), so the manifest users run from would go untested.
delete process.env.NODE_ENV;
