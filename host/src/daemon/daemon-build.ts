import { statSync } from 'node:fs';
import { hostPackagePath } from '../paths/host-package.js';
import { HOST_VERSION } from '../version.js';

let cached: string | undefined;

/**
 * The identity of this build of the host, which a daemon and its clients compare at connect:
 * the package version plus when and how big the command manifest the build writes last is
 * (`oclif.manifest.json`), so that a rebuilt checkout does not talk to a daemon still running
 * the old code. An installed package keeps its files' times, so its identity is stable.
 */
export function daemonBuild(): string {
  if (cached) return cached;
  try {
    const s = statSync(hostPackagePath('oclif.manifest.json'));
    cached = `${HOST_VERSION}+${Math.trunc(s.mtimeMs).toString(36)}.${s.size.toString(36)}`;
  } catch {
    cached = HOST_VERSION;
  }
  return cached;
}
