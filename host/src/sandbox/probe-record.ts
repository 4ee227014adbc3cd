import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { release } from 'node:os';
import { join } from 'node:path';
import { writePrivateFile } from '../paths/private-file.js';
import { travsrHome } from '../paths/travsr-home.js';

/** What a successful Linux probe learned that a later process may reuse. */
export interface ProbeFindings {
  bwrapVersion: string;
  /** bwrap accepted `--disable-userns`. */
  disableUserns: boolean;
}

/** The record's file under the Travsr home. */
const RECORD_FILE = 'sandbox-probe.json';
const FORMAT = 1;

/** Files whose contents say whether this machine lets bwrap create user namespaces (absent ones count too). */
const USERNS_SETTINGS = [
  '/proc/sys/kernel/random/boot_id',
  '/proc/sys/user/max_user_namespaces',
  '/proc/sys/kernel/unprivileged_userns_clone',
  '/proc/sys/kernel/apparmor_restrict_unprivileged_userns',
];

/**
 * A successful Linux sandbox probe, kept in `~/.travsr/sandbox-probe.json` so that a command
 * does not start two bwrap processes (about 80 ms) before its first plugin. The record holds
 * only for the exact conditions it was made under, summed up as its key: this boot (boot_id),
 * kernel and user, the user-namespace sysctls, the bwrap and prlimit files (path, inode, size,
 * mtime), and the probe's own flags and seccomp program (so an edited sandbox profile probes
 * again). A failed probe is never kept: its error is worked out afresh every time.
 *
 * @example
 * ```ts
 * const record = new ProbeRecord(probeKey({ bwrapPath, prlimitPath, probe: [args, program] }));
 * const known = record.read(); // undefined: probe, then record.write(findings)
 * ```
 */
export class ProbeRecord {
  constructor(
    readonly key: string,
    private readonly file = join(travsrHome(), RECORD_FILE),
  ) {}

  /** The findings recorded under this key; undefined when there are none (or the file is not ours). */
  read(): ProbeFindings | undefined {
    try {
      const r = JSON.parse(readFileSync(this.file, 'utf8')) as Record<string, unknown>;
      if (r['format'] !== FORMAT || r['key'] !== this.key) return undefined;
      const { bwrapVersion, disableUserns } = r;
      if (typeof bwrapVersion !== 'string' || !/^\d+\.\d+\.\d+$/.test(bwrapVersion) || typeof disableUserns !== 'boolean') return undefined;
      return { bwrapVersion, disableUserns };
    } catch {
      return undefined;
    }
  }

  /** Keeps the findings of a successful probe (best effort: a home that cannot be written only costs the next process a probe). */
  write(findings: ProbeFindings): void {
    writePrivateFile(this.file, `${JSON.stringify({ format: FORMAT, key: this.key, ...findings })}\n`);
  }
}

/** What the probe's result depends on, besides the machine itself. */
export interface ProbeKeyInput {
  bwrapPath: string;
  prlimitPath: string;
  /** The probe's command line and seccomp program (any change probes again). */
  probe: readonly (string | Uint8Array | undefined)[];
}

/** The key of the conditions a probe runs under (see {@link ProbeRecord}). */
export function probeKey(input: ProbeKeyInput): string {
  const h = createHash('sha256');
  const part = (s: string | Uint8Array) => h.update(s).update('\0');
  part(release());
  part(String(process.getuid?.() ?? ''));
  for (const f of USERNS_SETTINGS) part(readOr(f));
  for (const f of [input.bwrapPath, input.prlimitPath]) part(`${f}\0${statOf(f)}`);
  for (const p of input.probe) part(p ?? '-');
  return h.digest('hex');
}

function readOr(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '-';
  }
}

function statOf(file: string): string {
  const s = statSync(file, { throwIfNoEntry: false });
  return s ? `${s.ino}:${s.size}:${s.mtimeMs}:${s.mode}` : '-';
}
