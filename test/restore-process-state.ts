// Files of the in-process project share their fork (vitest.config.ts): whatever a file changes
// in process.env, the working directory or with spies is put back once it is done, so the next
// file starts from what a fresh fork would give it.
import { afterAll, vi } from 'vitest';

const env = { ...process.env };
const cwd = process.cwd();

afterAll(() => {
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
  Object.assign(process.env, env);
  if (process.cwd() !== cwd) process.chdir(cwd);
  vi.restoreAllMocks();
  vi.useRealTimers();
});
