import type { PluginManifest } from '@travsr/protocol';
import { LaunchSpecError, SandboxProfileError } from './errors.js';
import { asRecord, readProfileJson, sandboxProfilesDir } from './profiles-dir.js';

/**
 * Resource limits applied in every tier. `processes` counts tasks (threads included: a
 * Node.js process uses 7–11). `outputBytes` is enforced by the supervisor on the host side;
 * the others by the kernel (rlimits, cgroups, tmpfs size).
 */
export interface ResourceLimits {
  cpuSeconds: number;
  memoryMiB: number;
  processes: number;
  outputBytes: number;
  openFiles: number;
  tmpMiB: number;
}

/** The names of {@link ResourceLimits}, in a stable order. */
export const LIMIT_NAMES = [
  'cpuSeconds',
  'memoryMiB',
  'processes',
  'outputBytes',
  'openFiles',
  'tmpMiB',
] as const satisfies readonly (keyof ResourceLimits)[];

interface LimitsFile {
  defaults: ResourceLimits;
  max: ResourceLimits;
}

const cache = new Map<string, LimitsFile>();

function parseLimits(value: unknown, where: string): ResourceLimits {
  const rec = asRecord(value);
  if (!rec)
    throw new SandboxProfileError(
      `sandbox-profiles/limits.json: "${where}" must be an object of limits; restore the file from the Travsr release`,
    );
  const out = {} as ResourceLimits;
  for (const name of LIMIT_NAMES) {
    const v = rec[name];
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) {
      throw new SandboxProfileError(
        `sandbox-profiles/limits.json: ${where}.${name} must be a positive integer, got ${JSON.stringify(v)}; fix the file`,
      );
    }
    out[name] = v;
  }
  return out;
}

function limitsFile(): LimitsFile {
  const dir = sandboxProfilesDir();
  const hit = cache.get(dir);
  if (hit) return hit;
  const rec = asRecord(readProfileJson('limits.json'));
  if (!rec)
    throw new SandboxProfileError(
      'sandbox-profiles/limits.json must hold an object with "defaults" and "max"; restore it from the Travsr release',
    );
  const file = { defaults: parseLimits(rec['defaults'], 'defaults'), max: parseLimits(rec['max'], 'max') };
  for (const name of LIMIT_NAMES) {
    if (file.defaults[name] > file.max[name]) {
      throw new SandboxProfileError(
        `sandbox-profiles/limits.json: defaults.${name} (${file.defaults[name]}) is above max.${name} (${file.max[name]}); fix the file`,
      );
    }
  }
  cache.set(dir, file);
  return file;
}

/** The default limits, from `sandbox-profiles/limits.json` (`defaults`). Returns a fresh copy. */
export function defaultLimits(): ResourceLimits {
  return { ...limitsFile().defaults };
}

/** The most a plugin may ask for in `constraints.resources` (`max` in limits.json). */
export function maxLimits(): ResourceLimits {
  return { ...limitsFile().max };
}

/**
 * The limits to launch `manifest` with: `base` raised to what the manifest's
 * `constraints.resources` asks for, each capped at {@link maxLimits} (asking above the cap
 * is refused earlier, by evaluateConstraints).
 */
export function resolveLimits(manifest: PluginManifest, base: ResourceLimits = defaultLimits()): ResourceLimits {
  const out = { ...base };
  const max = maxLimits();
  const res = manifest.constraints.resources;
  if (res) {
    for (const name of ['memoryMiB', 'cpuSeconds', 'processes'] as const) {
      const want = res[name];
      if (want !== undefined && want > out[name]) out[name] = Math.min(want, max[name]);
    }
  }
  return out;
}

/** Throws a LaunchSpecError unless every limit is a positive safe integer. */
export function assertLimits(limits: ResourceLimits): void {
  for (const name of LIMIT_NAMES) {
    const v = (limits as unknown as Record<string, unknown>)[name];
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) {
      throw new LaunchSpecError(`limits.${name} must be a positive integer, got ${JSON.stringify(v)}; start from defaultLimits()`);
    }
  }
}
