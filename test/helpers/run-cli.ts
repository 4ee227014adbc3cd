import { Console } from 'node:console';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { execa } from 'execa';

const BIN = fileURLToPath(new URL('../../host/bin/run.js', import.meta.url));
const BUNDLE = new URL('../../host/dist/bundle/', import.meta.url);

/** What {@link travsr} gives back: the exit code and the two streams, as text. */
export interface CliResult {
  code: number | undefined;
  stdout: string;
  stderr: string;
}

/** Options of {@link travsr}. */
export interface CliOptions {
  cwd?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** Written to the CLI's standard input (otherwise it has none); the CLI then runs as a process. */
  input?: string;
  /** Run `bin/run.js` as a process whatever the mode (a test of the process itself). */
  process?: boolean;
}

/**
 * How {@link travsr} runs the CLI. `in-process` (the default): the built commands (the same
 * dist/bundle/ that bin/run.js runs: oclif's `execute`, or the lean entry for `status` and
 * `hook-run`) run in the test's own process, with the test's working directory, environment,
 * argv and standard streams put in place for the command and back after it; oclif's `Exit` seam
 * takes the exit code instead of `process.exit`. A CLI process costs some 0.25 CPU-seconds to
 * start (Node, oclif, the bundle), and the suite runs about 650 of them. `process`
 * (TRAVSR_TEST_CLI=process; `npm run test:loaded`, which CI runs too, sets it): every command is
 * `node host/bin/run.js …`, exactly as a user runs it. Commands that serve or read standard
 * input, and a second command while one is running in this process, always run as a process.
 */
const MODE = process.env.TRAVSR_TEST_CLI === 'process' ? 'process' : 'in-process';

/** Runs the real `travsr` CLI (built) with the test's TRAVSR_HOME, never throwing on exit codes. */
export async function travsr(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  if (MODE === 'process' || opts.process || opts.input !== undefined || running || longRunning(args)) return spawned(args, opts);
  return inProcess(args, opts);
}

async function spawned(args: string[], opts: CliOptions): Promise<CliResult> {
  const r = await execa(process.execPath, [BIN, ...args], {
    cwd: opts.cwd ?? process.cwd(),
    env: { TRAVSR_HOME: process.env.TRAVSR_HOME!, ...opts.env },
    reject: false,
    timeout: opts.timeoutMs ?? 120_000,
    ...(opts.input === undefined ? { stdin: 'ignore' as const } : { input: opts.input }),
  });
  return { code: r.exitCode, stdout: r.stdout, stderr: r.stderr };
}

/** Commands that serve until stopped, or answer before oclif loads: always a process. */
function longRunning(args: string[]): boolean {
  const [a, b] = args;
  return (
    a === undefined ||
    a === '--version' ||
    a === 'serve' ||
    (a === 'mcp' && b !== 'token') ||
    (a === 'registry' && b === 'serve') ||
    (a === 'graph' && b === 'view') ||
    (a === 'daemon' && b === 'logs')
  );
}

/** True while a command runs in this process (the streams, cwd and env are its own then). */
let running = false;

interface Bundle {
  execute(opts: { dir: string; args: string[] }): Promise<unknown>;
  Exit: { exit(code?: number): void };
}
let bundle: Promise<Bundle> | undefined;

/** The lean entry bin/run.js takes for these (`mcp` has its own build and serves: a process). */
const LEAN = new Set(['hook-run', 'status']);

async function inProcess(args: string[], opts: CliOptions): Promise<CliResult> {
  running = true;
  const saved = { env: { ...process.env }, cwd: process.cwd(), argv: process.argv, console: globalThis.console };
  const out: string[] = [];
  const err: string[] = [];
  let code: number | undefined;
  const restore: (() => void)[] = [];
  try {
    const cli = await (bundle ??= import(new URL('execute.js', BUNDLE).href) as Promise<Bundle>);
    Object.assign(process.env, { TRAVSR_HOME: process.env.TRAVSR_HOME!, ...opts.env });
    if (opts.cwd) process.chdir(opts.cwd);
    process.argv = [process.execPath, BIN, ...args];
    restore.push(redirect(process.stdout, out), redirect(process.stderr, err));
    globalThis.console = new Console({ stdout: process.stdout, stderr: process.stderr });
    if (LEAN.has(args[0]!)) {
      const lean = createRequire(import.meta.url)(fileURLToPath(new URL('lean.cjs', BUNDLE))) as {
        runLeanEntry(argv: string[]): Promise<number | undefined>;
      };
      code = await lean.runLeanEntry(args);
    }
    if (code === undefined) {
      code = 0;
      cli.Exit.exit = (c = 0) => void (code = c);
      await cli.execute({ dir: pathToFileURL(BIN).href, args });
    }
  } catch (e) {
    // What a process would die of: an uncaught error, with its stack on stderr.
    err.push(`${(e as Error)?.stack ?? String(e)}\n`);
    code = 1;
  } finally {
    for (const undo of restore) undo();
    globalThis.console = saved.console;
    process.argv = saved.argv;
    if (process.cwd() !== saved.cwd) process.chdir(saved.cwd);
    for (const key of Object.keys(process.env)) if (!(key in saved.env)) delete process.env[key];
    Object.assign(process.env, saved.env);
    running = false;
  }
  // As execa gives them: without the final newline.
  return { code, stdout: out.join('').replace(/\r?\n$/, ''), stderr: err.join('').replace(/\r?\n$/, '') };
}

/**
 * Sends what `stream` is given into `to` until the returned function puts its own `write` back
 * and takes off the `drain` listeners the command left: oclif's `flush` waits for one after
 * writing '' and leaves it when that write succeeds at once (a process exits; this one runs
 * hundreds of commands, and past ten the stream's leak warning lands in a command's stderr).
 */
function redirect(stream: NodeJS.WriteStream, to: string[]): () => void {
  const drains = new Set(stream.listeners('drain'));
  const own = Object.getOwnPropertyDescriptor(stream, 'write');
  stream.write = (chunk: string | Uint8Array, encoding?: unknown, cb?: unknown): boolean => {
    to.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const done = typeof encoding === 'function' ? encoding : cb;
    if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
    return true;
  };
  return () => {
    if (own) Object.defineProperty(stream, 'write', own);
    else Reflect.deleteProperty(stream, 'write');
    for (const l of stream.listeners('drain')) if (!drains.has(l)) stream.removeListener('drain', l as () => void);
  };
}

/** A `travsr` process a test started and stops (`kill('SIGTERM')`, then await it). */
export type CliProcess = ReturnType<typeof startCli>;

/** Starts the real CLI with `args`, the test's TRAVSR_HOME and `env`, never rejecting on its exit code. */
export function startCli(args: readonly string[], env: Record<string, string> = {}) {
  const childEnv: Record<string, string> = { TRAVSR_HOME: process.env.TRAVSR_HOME!, ...env };
  return execa(process.execPath, [BIN, ...args], { env: childEnv, reject: false });
}
