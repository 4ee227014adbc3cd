// Shared by the sandbox suite: launches the probe plugin in test/fixtures/sandbox under a
// real sandbox and collects what it printed. Not a test file itself.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import type { PluginManifest } from '@travsr/protocol';
import {
  defaultLimits,
  prepareLaunch,
  type LaunchCommand,
  type LaunchSpec,
  type ResourceLimits,
  type SandboxTier,
} from '../../host/src/sandbox/index.js';

export const repoTop = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const probeDir = join(repoTop, 'test/fixtures/sandbox');
const baseManifest = JSON.parse(readFileSync(join(probeDir, 'travsr-plugin.json'), 'utf8')) as PluginManifest;

/** The probe manifest running `script` with `args`, with optional constraint changes. */
export function probeManifest(
  script: string,
  args: string[] = [],
  constraints: Partial<PluginManifest['constraints']> = {},
): PluginManifest {
  return {
    ...baseManifest,
    entrypoint: { runtime: 'node', path: script, args },
    constraints: { ...baseManifest.constraints, ...constraints },
  };
}

/** A fresh directory under test/.cache (git-ignored), outside /tmp on purpose. */
export function cacheDir(prefix: string): string {
  const root = join(repoTop, 'test/.cache');
  mkdirSync(root, { recursive: true });
  return mkdtempSync(join(root, `${prefix}-`));
}

/** A small repository to bind read-only. */
export function makeRepo(): { dir: string; file: string } {
  const dir = cacheDir('repo');
  writeFileSync(join(dir, 'README.md'), 'original\n');
  return { dir, file: join(dir, 'README.md') };
}

export interface SandboxRun {
  cmd: LaunchCommand;
  exitCode: number | undefined;
  signal: string | undefined;
  stdout: string;
  stderr: string;
}

/** Prepares the launch, runs it to the end (at most `timeoutMs`), and always cleans up. */
export async function runInSandbox(
  manifest: PluginManifest,
  opts: {
    tier?: SandboxTier;
    /** Default: the probe directory test/fixtures/sandbox. */
    pluginDir?: string;
    /** The Node binary for `runtime: node` (default: this process's). */
    nodePath?: string;
    limits?: Partial<ResourceLimits>;
    repoRoot?: string;
    env?: Record<string, string>;
    networkAllow?: string[];
    timeoutMs?: number;
  } = {},
): Promise<SandboxRun> {
  const spec: LaunchSpec = {
    pluginDir: opts.pluginDir ?? probeDir,
    manifest,
    tier: opts.tier ?? 'standard',
    limits: { ...defaultLimits(), ...opts.limits },
    env: opts.env ?? { TRAVSR_PLUGIN_COOKIE: 'sandbox-suite' },
  };
  if (opts.repoRoot !== undefined) spec.repoRoot = opts.repoRoot;
  if (opts.nodePath !== undefined) spec.nodePath = opts.nodePath;
  if (opts.networkAllow) spec.networkAllow = opts.networkAllow;
  const cmd = await prepareLaunch(spec);
  try {
    const r = await execa(cmd.file, cmd.args, {
      env: cmd.env,
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
      timeout: opts.timeoutMs ?? 20_000,
    });
    return { cmd, exitCode: r.exitCode, signal: r.signal, stdout: String(r.stdout), stderr: String(r.stderr) };
  } finally {
    await cmd.cleanup();
  }
}

/** The last JSON line a probe printed. */
export function lastJson<T>(run: SandboxRun): T {
  const line = run.stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line) as T;
  } catch {
    throw new Error(`probe printed no JSON (exit ${String(run.exitCode)}, signal ${String(run.signal)}):\n${run.stdout}\n${run.stderr}`);
  }
}

/**
 * A plugin directory holding `syscall-probe` (test/fixtures/sandbox/syscall-probe.c), compiled
 * here with gcc -static so that it needs nothing from the sandbox's /usr. Node cannot make raw
 * system calls; this binary makes the ones the seccomp policy denies and prints one JSON line.
 */
export async function syscallProbePlugin(): Promise<{ dir: string; manifest: PluginManifest }> {
  const dir = cacheDir('syscall-probe');
  copyFileSync(join(probeDir, 'travsr-plugin.json'), join(dir, 'travsr-plugin.json'));
  const cc = await execa('gcc', ['-static', '-O1', '-o', join(dir, 'syscall-probe'), join(probeDir, 'syscall-probe.c')], { reject: false });
  if (cc.exitCode !== 0) throw new Error(`gcc could not build the syscall probe (install gcc and the libc static library):\n${cc.stderr}`);
  return { dir, manifest: { ...baseManifest, entrypoint: { runtime: 'exec', path: 'syscall-probe' } } };
}
