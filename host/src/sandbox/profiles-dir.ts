import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SandboxProfileError } from './errors.js';

let cached: string | undefined;

/**
 * The `sandbox-profiles/` directory: `TRAVSR_SANDBOX_PROFILES` when set, else the nearest
 * `sandbox-profiles/` above this module (the monorepo root, for both `src/` and `dist/`).
 */
export function sandboxProfilesDir(): string {
  const override = process.env['TRAVSR_SANDBOX_PROFILES'];
  if (override) return resolve(override);
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const candidate = join(dir, 'sandbox-profiles');
    if (existsSync(join(candidate, 'limits.json'))) return (cached = candidate);
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new SandboxProfileError(
    `sandbox-profiles/ was not found above ${fileURLToPath(import.meta.url)}, so no sandbox policy can be built; ` +
      'set TRAVSR_SANDBOX_PROFILES to the directory that holds limits.json, linux/, macos/ and windows/',
  );
}

/** Reads and parses a JSON file under sandbox-profiles/, naming the file on failure. */
export function readProfileJson(relativePath: string): unknown {
  const file = join(sandboxProfilesDir(), relativePath);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new SandboxProfileError(
      `cannot read sandbox profile ${file}: ${(e as Error).message}; reinstall Travsr or fix TRAVSR_SANDBOX_PROFILES`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new SandboxProfileError(`sandbox profile ${file} is not valid JSON: ${(e as Error).message}; restore it from the Travsr release`);
  }
}

/** A plain object, or undefined. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
