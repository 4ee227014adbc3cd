/**
 * How the host starts a `runtime: node` plugin: `<node> <flags> <entrypoint> …args`. The flags
 * are part of the contract because V8 accepts a code cache only from a process with the same
 * flags: a plugin's build writes its caches for exactly these (see `@travsr/sdk`'s
 * `requireBundle` and `@travsr/sdk/build`'s `writeCodeCaches`).
 */

/**
 * The memory limit a plugin runs with when its manifest asks for none
 * (`sandbox-profiles/limits.json`, `defaults.memoryMiB`; a test keeps the two equal).
 */
export const DEFAULT_PLUGIN_MEMORY_MIB = 2048;

/** V8 old-space cap for a memory limit: below the hard limit, so the heap is collected before allocations fail. */
export function nodeHeapMiB(memoryMiB: number): number {
  return Math.max(32, Math.floor((memoryMiB * 3) / 4));
}

/**
 * The Node.js flags of a plugin process with `memoryMiB` of memory: the heap cap, and for a
 * brief session (a run with few files to analyze) WebAssembly by the baseline compiler only.
 *
 * @example
 * ```ts
 * nodeLaunchFlags(4096, { brief: true }); // ['--max-old-space-size=3072', '--liftoff-only']
 * ```
 */
export function nodeLaunchFlags(memoryMiB: number, opts: { brief?: boolean | undefined } = {}): string[] {
  return [`--max-old-space-size=${nodeHeapMiB(memoryMiB)}`, ...(opts.brief ? ['--liftoff-only'] : [])];
}

/** The memory a plugin runs with under the default limits: what its manifest asks for, at least the default. */
export function pluginMemoryMiB(asked: number | undefined): number {
  return Math.max(asked ?? 0, DEFAULT_PLUGIN_MEMORY_MIB);
}
