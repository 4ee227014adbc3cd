// Every test run gets its own ~/.travsr, so tests never read or write the user's.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

if (!process.env.TRAVSR_TEST_KEEP_HOME) process.env.TRAVSR_HOME = mkdtempSync(join(tmpdir(), 'travsr-home-'));
