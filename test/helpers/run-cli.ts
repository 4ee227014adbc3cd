import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

const BIN = fileURLToPath(new URL('../../host/bin/run.js', import.meta.url));

/** Runs the real `travsr` CLI (built) with the test's TRAVSR_HOME, never throwing on exit codes. */
/** `input` is written to the CLI's standard input (otherwise it has none). */
export async function travsr(
  args: string[],
  opts: { cwd?: string; env?: Record<string, string>; timeoutMs?: number; input?: string } = {},
) {
  const r = await execa(process.execPath, [BIN, ...args], {
    cwd: opts.cwd ?? process.cwd(),
    env: { TRAVSR_HOME: process.env.TRAVSR_HOME!, ...opts.env },
    reject: false,
    timeout: opts.timeoutMs ?? 120_000,
    ...(opts.input === undefined ? { stdin: 'ignore' as const } : { input: opts.input }),
  });
  return { code: r.exitCode, stdout: r.stdout, stderr: r.stderr };
}

/** A `travsr` process a test started and stops (`kill('SIGTERM')`, then await it). */
export type CliProcess = ReturnType<typeof startCli>;

/** Starts the real CLI with `args`, the test's TRAVSR_HOME and `env`, never rejecting on its exit code. */
export function startCli(args: readonly string[], env: Record<string, string> = {}) {
  const childEnv: Record<string, string> = { TRAVSR_HOME: process.env.TRAVSR_HOME!, ...env };
  return execa(process.execPath, [BIN, ...args], { env: childEnv, reject: false });
}
