import { readFileSync, readdirSync } from 'node:fs';

/**
 * Resident memory (bytes) of a process and all its descendants — a sandboxed plugin is the
 * sandbox's child, and may run worker processes — read from `/proc` on Linux. Undefined
 * where there is no `/proc` (macOS, Windows) or the process is gone.
 */
export function processTreeRss(pid: number): number | undefined {
  let total = 0;
  let any = false;
  const seen = new Set<number>();
  const stack = [pid];
  while (stack.length > 0) {
    const p = stack.pop()!;
    if (seen.has(p)) continue;
    seen.add(p);
    const rss = residentBytes(p);
    if (rss === undefined) continue;
    any = true;
    total += rss;
    stack.push(...childrenOf(p));
  }
  return any ? total : undefined;
}

function residentBytes(pid: number): number | undefined {
  try {
    const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0; // a zombie has no VmRSS
  } catch {
    return undefined;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8')
        .split(' ')
        .filter((s) => s.trim() !== '')
        .map(Number),
    );
  } catch {
    return [];
  }
}
