import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ResourceLimits } from './limits.js';

/**
 * A per-launch cgroup that caps tasks (pids controller) and, where the memory controller
 * is writable, memory. Needed because the kernel does not enforce RLIMIT_NPROC for root.
 * The sandbox enters it before bwrap starts (the launch command writes its own pid into
 * every `cgroup.procs`), so everything inside is counted.
 */
export interface ProcessCgroup {
  version: 1 | 2;
  /** Session directories, one per hierarchy (pids first). */
  dirs: string[];
  /** The `cgroup.procs` files the launch command writes its pid into. */
  procsFiles: string[];
  /** The memory cap written, in bytes, or undefined when no memory controller was writable. */
  memoryBytes: number | undefined;
  /** Kills what is left inside and removes the directories; idempotent. */
  remove(): Promise<void>;
}

interface Mount {
  dir: string;
  type: 'cgroup' | 'cgroup2';
  options: string[];
}

function mounts(): Mount[] {
  let text = '';
  try {
    text = readFileSync('/proc/self/mounts', 'utf8');
  } catch {
    return [];
  }
  const out: Mount[] = [];
  for (const line of text.split('\n')) {
    const [, dir, type, opts] = line.split(' ');
    if (dir && (type === 'cgroup' || type === 'cgroup2'))
      out.push({ dir: dir.replace(/\\040/g, ' '), type, options: (opts ?? '').split(',') });
  }
  return out;
}

/** This process's cgroup path per v1 controller, and its v2 path under the key ''. */
function ownCgroups(): Map<string, string> {
  const map = new Map<string, string>();
  let text = '';
  try {
    text = readFileSync('/proc/self/cgroup', 'utf8');
  } catch {
    return map;
  }
  for (const line of text.split('\n')) {
    const first = line.indexOf(':');
    const second = line.indexOf(':', first + 1);
    if (first < 0 || second < 0) continue;
    const controllers = line.slice(first + 1, second);
    const path = line.slice(second + 1);
    if (controllers === '') map.set('', path);
    else for (const c of controllers.split(',')) map.set(c, path);
  }
  return map;
}

async function tryWrite(file: string, value: string): Promise<boolean> {
  try {
    await writeFile(file, value);
    return true;
  } catch {
    return false;
  }
}

async function readPids(procsFile: string): Promise<number[]> {
  try {
    return (await readFile(procsFile, 'utf8'))
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map(Number)
      .filter((n) => Number.isInteger(n) && n > 0);
  } catch {
    return [];
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function removeDir(dir: string): Promise<void> {
  const procs = join(dir, 'cgroup.procs');
  for (let attempt = 0; attempt < 60; attempt++) {
    const pids = await readPids(procs);
    if (pids.length > 0) {
      if (!(await tryWrite(join(dir, 'cgroup.kill'), '1'))) {
        for (const pid of pids) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }
      }
      await sleep(50);
      continue;
    }
    try {
      await rmdir(dir);
      return;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return;
      if (code !== 'EBUSY') throw e;
      await sleep(50); // tasks that just exited are still being released
    }
  }
}

/** Removes the session directories, then their `travsr` parents when no other session uses them. */
function makeRemover(dirs: string[]): () => Promise<void> {
  let done: Promise<void> | undefined;
  const removeOne = async (d: string): Promise<void> => {
    await removeDir(d);
    await rmdir(dirname(d)).catch(() => undefined); // busy while other sessions run
  };
  return () => (done ??= Promise.all(dirs.map((d) => removeOne(d).catch(() => undefined))).then(() => undefined));
}

/** mkdir -p that tolerates another session removing the shared parent meanwhile. */
async function makeSessionDir(dir: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await mkdir(dir, { recursive: true });
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 5) throw e;
    }
  }
}

async function createV1(
  session: string,
  limits: ResourceLimits,
  ms: Mount[],
  own: Map<string, string>,
): Promise<ProcessCgroup | undefined> {
  const pidsMount = ms.find((m) => m.type === 'cgroup' && m.options.includes('pids'));
  if (!pidsMount) return undefined;
  const pidsDir = join(pidsMount.dir, own.get('pids') ?? '/', 'travsr', session);
  try {
    await makeSessionDir(pidsDir);
  } catch {
    return undefined;
  }
  if (!(await tryWrite(join(pidsDir, 'pids.max'), String(limits.processes)))) {
    await makeRemover([pidsDir])();
    return undefined;
  }
  const dirs = [pidsDir];
  let memoryBytes: number | undefined;
  const memMount = ms.find((m) => m.type === 'cgroup' && m.options.includes('memory'));
  if (memMount) {
    // Nested under this process's own memory cgroup, so the host's own cap still applies.
    const memDir = join(memMount.dir, own.get('memory') ?? '/', 'travsr', session);
    const bytes = (limits.memoryMiB + limits.tmpMiB) * 1024 * 1024;
    try {
      await makeSessionDir(memDir);
      if (await tryWrite(join(memDir, 'memory.limit_in_bytes'), String(bytes))) {
        dirs.push(memDir);
        memoryBytes = bytes;
      } else {
        await makeRemover([memDir])();
      }
    } catch {
      // memory is still capped per process by RLIMIT_DATA
    }
  }
  return { version: 1, dirs, procsFiles: dirs.map((d) => join(d, 'cgroup.procs')), memoryBytes, remove: makeRemover(dirs) };
}

async function createV2(
  session: string,
  limits: ResourceLimits,
  ms: Mount[],
  own: Map<string, string>,
): Promise<ProcessCgroup | undefined> {
  const mount = ms.find((m) => m.type === 'cgroup2');
  const ownPath = own.get('');
  if (!mount || ownPath === undefined) return undefined;
  const base = join(mount.dir, ownPath);
  let available: string[] = [];
  try {
    available = (await readFile(join(base, 'cgroup.controllers'), 'utf8')).trim().split(/\s+/);
  } catch {
    return undefined;
  }
  if (!available.includes('pids')) return undefined;
  const wanted = available.includes('memory') ? ['pids', 'memory'] : ['pids'];
  const parent = join(base, 'travsr');
  const dir = join(parent, session);
  const enable = wanted.map((c) => `+${c}`).join(' ');
  // Another session may remove the shared parent between these steps; then try again.
  let ready = false;
  for (let attempt = 0; attempt < 3 && !ready; attempt++) {
    try {
      await tryWrite(join(base, 'cgroup.subtree_control'), enable);
      await mkdir(parent, { recursive: true });
      await tryWrite(join(parent, 'cgroup.subtree_control'), enable);
      await makeSessionDir(dir);
    } catch {
      return undefined;
    }
    ready = await tryWrite(join(dir, 'pids.max'), String(limits.processes));
    if (!ready) await rmdir(dir).catch(() => undefined);
  }
  if (!ready) {
    await makeRemover([dir])();
    return undefined;
  }
  const bytes = (limits.memoryMiB + limits.tmpMiB) * 1024 * 1024;
  const memoryBytes = (await tryWrite(join(dir, 'memory.max'), String(bytes))) ? bytes : undefined;
  if (memoryBytes !== undefined) await tryWrite(join(dir, 'memory.swap.max'), '0');
  return { version: 2, dirs: [dir], procsFiles: [join(dir, 'cgroup.procs')], memoryBytes, remove: makeRemover([dir]) };
}

/**
 * Creates the session's cgroup under this process's own cgroup (`…/travsr/<session>`):
 * cgroup v1 when a pids hierarchy is mounted, else v2 when its `cgroup.controllers`
 * lists pids. Returns undefined when none is writable.
 */
export async function createProcessCgroup(session: string, limits: ResourceLimits): Promise<ProcessCgroup | undefined> {
  const ms = mounts();
  const own = ownCgroups();
  return (await createV1(session, limits, ms, own)) ?? (await createV2(session, limits, ms, own));
}

/**
 * Tasks (threads included) the user `uid` runs now. RLIMIT_NPROC counts them all, so a
 * non-root launch adds them to its process limit as headroom.
 */
export function countUserTasks(uid: number): number {
  let total = 0;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return 0;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const status = readFileSync(`/proc/${name}/status`, 'utf8');
      const uidLine = /^Uid:\s+(\d+)/m.exec(status);
      if (uidLine?.[1] !== String(uid)) continue;
      const threads = /^Threads:\s+(\d+)/m.exec(status);
      total += threads?.[1] ? Number(threads[1]) : 1;
    } catch {
      // the process exited meanwhile
    }
  }
  return total;
}
