// Runs the real `travsr` CLI as a user would (`node host/bin/run.js …`) with its own
// TRAVSR_HOME, timing the whole process and sampling the peak RSS (VmHWM) of the host process
// and of the plugin processes under it (the `node` inside the bwrap sandbox).
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, tempDir } from './common.js';

const BIN = join(repoRoot, 'host', 'bin', 'run.js');
const POLL_MS = 20;
/** Polls between two scans of /proc for new plugin processes. */
const DISCOVER_EVERY = 5;

/** VmHWM of a process in KiB, or undefined when it is gone (or not Linux). */
function peakRssKiB(pid) {
  try {
    const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

let clockTicks;
/** CPU time (user + system) of a process in ms, or undefined when it is gone (or not Linux). */
function cpuMs(pid) {
  try {
    clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat(5), counted from the state (field 3) here.
    return ((Number(f[11]) + Number(f[12])) * 1000) / clockTicks;
  } catch {
    return undefined;
  }
}

/** `node` processes descending from `root` (the host's own git, sh, prlimit and bwrap are left out). */
function nodeDescendants(root) {
  const children = new Map();
  const comm = new Map();
  let entries;
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const ppid = Number(stat.slice(close + 2).split(' ')[1]);
      comm.set(Number(e), stat.slice(stat.indexOf('(') + 1, close));
      children.set(ppid, [...(children.get(ppid) ?? []), Number(e)]);
    } catch {
      // exited meanwhile
    }
  }
  const out = [];
  const stack = [...(children.get(root) ?? [])];
  while (stack.length > 0) {
    const pid = stack.pop();
    if (comm.get(pid) === 'node') out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** A fresh per-user Travsr directory, so the user's ~/.travsr is never read or written. */
export function benchTravsrHome() {
  return tempDir('home');
}

/**
 * Runs `travsr <args>`; resolves `{ code, stdout, stderr, wallMs, hostPeakKiB, pluginPeakKiB,
 * hostCpuMs, pluginCpuMs }` (undefined where /proc cannot tell). Never rejects on a non-zero exit.
 */
export function runTravsr(args, { home, env = {}, cwd = repoRoot, timeoutMs = 300_000 } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...process.env, TRAVSR_HOME: home, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    let hostPeak;
    let hostCpu;
    const pluginPeaks = new Map();
    const pluginCpu = new Map();
    // The plugins are found by a scan of /proc, every DISCOVER_EVERY polls: scanning it every
    // poll cost the machine more than measuring a single process costs scip-typescript's run.
    let known = [];
    let polls = 0;
    const sample = () => {
      const host = peakRssKiB(child.pid);
      if (host !== undefined) hostPeak = Math.max(hostPeak ?? 0, host);
      hostCpu = cpuMs(child.pid) ?? hostCpu;
      if (polls++ % DISCOVER_EVERY === 0) known = nodeDescendants(child.pid);
      for (const pid of known) {
        const kib = peakRssKiB(pid);
        if (kib !== undefined) pluginPeaks.set(pid, Math.max(pluginPeaks.get(pid) ?? 0, kib));
        const cpu = cpuMs(pid);
        if (cpu !== undefined) pluginCpu.set(pid, cpu);
      }
    };
    const poll = setInterval(sample, POLL_MS);
    const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    let wallMs;
    child.on('exit', () => {
      wallMs = performance.now() - t0;
      clearInterval(poll);
      clearTimeout(killer);
    });
    child.on('error', (e) => {
      clearInterval(poll);
      clearTimeout(killer);
      reject(e);
    });
    child.on('close', (code) =>
      resolve({
        code,
        stdout,
        stderr,
        wallMs,
        hostPeakKiB: hostPeak,
        pluginPeakKiB: pluginPeaks.size > 0 ? Math.max(...pluginPeaks.values()) : undefined,
        pluginProcesses: pluginPeaks.size,
        // Sampled: up to one poll interval short of the final figure.
        hostCpuMs: hostCpu,
        pluginCpuMs: pluginCpu.size > 0 ? [...pluginCpu.values()].reduce((a, b) => a + b, 0) : undefined,
      }),
    );
  });
}

/** Runs `travsr <args> --json` and parses its output; throws with stderr when it fails. */
export async function runTravsrJson(args, opts) {
  const r = await runTravsr([...args, '--json'], opts);
  if (r.code !== 0) throw new Error(`travsr ${args.join(' ')} exited with ${r.code}: ${r.stderr.trim().split('\n').slice(-3).join(' ')}`);
  try {
    return { ...r, json: JSON.parse(r.stdout) };
  } catch {
    throw new Error(`travsr ${args.join(' ')} printed no JSON: ${r.stdout.slice(0, 200)}`);
  }
}
