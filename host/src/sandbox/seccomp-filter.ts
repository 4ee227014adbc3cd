import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SandboxProfileError } from './errors.js';
import { asRecord, readProfileJson, sandboxProfilesDir } from './profiles-dir.js';
import type { SandboxTier } from './tier.js';

/** Architectures the policy is compiled for, by their libseccomp names. */
export const SECCOMP_ARCHES = ['x86_64', 'aarch64'] as const;
/** One of {@link SECCOMP_ARCHES}. */
export type SeccompArch = (typeof SECCOMP_ARCHES)[number];

/** A compiled seccomp program for bwrap's `--seccomp FD`: `struct sock_filter[]` in host byte order. */
export interface SeccompFilter {
  arch: SeccompArch;
  program: Buffer;
  /** Where it was read from, for traces. */
  file: string;
}

/** Tiers the issue promises a filter to: a policy file that leaves one out is refused. */
const REQUIRED_TIERS: readonly SandboxTier[] = ['standard', 'native-ipc'];
/** BPF_MAXINSNS: the kernel refuses a longer classic program. */
const MAX_INSTRUCTIONS = 4096;
const POLICY = 'linux/seccomp.json';
const BLOBS = 'linux/seccomp-blobs.json';

const NODE_ARCH: Partial<Record<NodeJS.Architecture, SeccompArch>> = { x64: 'x86_64', arm64: 'aarch64' };

function fail(what: string): never {
  throw new SandboxProfileError(
    `sandbox-profiles/${what}; regenerate with python3 sandbox-profiles/linux/seccomp-generate.py, or restore the files from the Travsr release`,
  );
}

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

interface LoadedPolicy {
  tiers: readonly SandboxTier[];
  programs: Map<SeccompArch, SeccompFilter>;
}

function load(dir: string): LoadedPolicy {
  const policy = asRecord(readProfileJson(POLICY)) ?? fail(`${POLICY} must hold an object`);
  const policyBytes = readFileSync(join(dir, POLICY));
  const tiers = policy['tiers'];
  if (!Array.isArray(tiers) || !tiers.every((t): t is SandboxTier => t === 'standard' || t === 'native-ipc' || t === 'elevated'))
    fail(`${POLICY}: tiers must list sandboxed tiers`);
  const missing = REQUIRED_TIERS.filter((t) => !tiers.includes(t));
  if (missing.length > 0) fail(`${POLICY}: tiers must include ${missing.join(', ')} (Travsr promises a seccomp filter there)`);
  const blobs = asRecord(readProfileJson(BLOBS)) ?? fail(`${BLOBS} must hold an object`);
  // A policy edited without regenerating would otherwise run the old filter unnoticed.
  if (blobs['policySha256'] !== sha256(policyBytes)) fail(`${BLOBS} was generated from another ${POLICY}`);
  const entries = asRecord(blobs['blobs']) ?? fail(`${BLOBS}: blobs is missing`);
  const programs = new Map<SeccompArch, SeccompFilter>();
  for (const arch of SECCOMP_ARCHES) {
    const entry = asRecord(entries[arch]);
    if (!entry) continue;
    const name = entry['file'];
    if (typeof name !== 'string' || !/^seccomp-[a-z0-9_]+\.bpf$/.test(name)) fail(`${BLOBS}: blobs.${arch}.file is not a blob name`);
    const file = join(dir, 'linux', name);
    let program: Buffer;
    try {
      program = readFileSync(file);
    } catch (e) {
      fail(`linux/${name} cannot be read (${(e as Error).message})`);
    }
    if (sha256(program) !== entry['sha256']) fail(`linux/${name} does not match its sha256 in ${BLOBS}`);
    if (program.length === 0 || program.length % 8 !== 0 || program.length / 8 > MAX_INSTRUCTIONS)
      fail(`linux/${name} is not a classic BPF program (${program.length} bytes)`);
    programs.set(arch, { arch, program, file });
  }
  return { tiers: [...tiers], programs };
}

const cache = new Map<string, LoadedPolicy>();

/**
 * The seccomp program a launch in `tier` gets on this machine's architecture (`nodeArch`,
 * default `process.arch`), read from `sandbox-profiles/linux/` and checked against the policy
 * it was compiled from; undefined for a tier the policy does not cover or an architecture it
 * was not compiled for. Throws {@link SandboxProfileError} for missing, stale or malformed files.
 */
export function seccompFilter(tier: SandboxTier, nodeArch: NodeJS.Architecture = process.arch): SeccompFilter | undefined {
  const dir = sandboxProfilesDir();
  let policy = cache.get(dir);
  if (!policy) {
    policy = load(dir);
    cache.set(dir, policy);
  }
  if (!policy.tiers.includes(tier)) return undefined;
  const arch = NODE_ARCH[nodeArch];
  return arch !== undefined ? policy.programs.get(arch) : undefined;
}
