// Every test run gets its own ~/.travsr, so tests never read or write the user's.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

if (!process.env.TRAVSR_TEST_KEEP_HOME) process.env.TRAVSR_HOME = mkdtempSync(join(tmpdir(), 'travsr-home-'));

// The CLI, git hooks and the other processes tests start run as on a user's machine. Vitest sets
// NODE_ENV=test, with which oclif ignores host/oclif.manifest.json and imports every command at
// each start (about 0.4 s more per command), so the manifest users run from would go untested.
delete process.env.NODE_ENV;
