// Every test file gets its own ~/.travsr, so tests never read or write the user's
// (TRAVSR_TEST_KEEP_HOME=1 keeps yours), and its own temporary directory (TMPDIR, which
// os.tmpdir() and the processes the tests start read), removed with what its tests and their
// processes left there once the file is done: some 900 directories a run were left behind.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

// Files sharing a fork each start from the fork's own temporary directory, not the last file's.
const shared = globalThis as { travsrTestTmpBase?: string };
shared.travsrTestTmpBase ??= tmpdir();
const tmp = mkdtempSync(join(shared.travsrTestTmpBase, 'travsr-test-'));
// Others may pass through, as through /tmp, to what a test makes for them (the tests that run a
// step as another user); what mkdtemp makes inside stays the owner's alone.
chmodSync(tmp, 0o711);
process.env.TMPDIR = tmp;
if (!process.env.TRAVSR_TEST_KEEP_HOME) process.env.TRAVSR_HOME = mkdtempSync(join(tmp, 'travsr-home-'));
// afterAll hooks run last registered first: the file's own, which stop the daemons and servers
// that use this home, have run by then.
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// The CLI, git hooks and the other processes tests start run as on a user's machine. Vitest sets
// NODE_ENV=test, with which oclif ignores host/oclif.manifest.json and imports every command at
// each start (about 0.4 s more per command), so the manifest users run from would go untested.
delete process.env.NODE_ENV;
