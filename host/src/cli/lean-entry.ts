import { existsSync, statSync } from 'node:fs';
import { format } from 'node:util';
import { daemonPaths } from '../daemon/daemon-paths.js';
import { terminalText } from '../log/terminal-text.js';
import { hookRun } from './hook-run-action.js';
import { showStatus } from './status-action.js';

/** Where a lean command writes: lines through `terminalText`, as the oclif commands' do. */
interface LeanOutput {
  log(line: string): void;
  logToStderr(line: string): void;
}

/**
 * A command the lean entry runs: what it takes of the arguments (undefined: leave it to oclif)
 * and its body, which may still leave the command to oclif (`'oclif'`) before it has done anything.
 */
interface LeanCommand<R> {
  parse(args: readonly string[]): R | undefined;
  run(req: R, out: LeanOutput): Promise<void | 'oclif'>;
}

/**
 * `[path] [flags…]` with only the given boolean flags, the path an existing directory (default
 * `.`); undefined for anything else — `--help`, an unknown flag, a second path, a path that is no
 * directory — which oclif then answers with its usual messages.
 */
function pathAndFlags<F extends string>(args: readonly string[], flags: readonly F[]): ({ path: string } & Record<F, boolean>) | undefined {
  let path: string | undefined;
  const set = Object.fromEntries(flags.map((f) => [f, false])) as Record<F, boolean>;
  for (const a of args) {
    const flag = a.startsWith('--') ? (a.slice(2) as F) : undefined;
    if (flag !== undefined && flags.includes(flag)) set[flag] = true;
    else if (a.startsWith('-') || path !== undefined) return undefined;
    else path = a;
  }
  path ??= '.';
  if (!statSync(path, { throwIfNoEntry: false })?.isDirectory()) return undefined;
  return { path, ...set };
}

const hookRunCommand: LeanCommand<{ path: string; fromHook: boolean; json: boolean }> = {
  parse(args) {
    const p = pathAndFlags(args, ['from-hook', 'json']);
    return p && { path: p.path, fromHook: p['from-hook'], json: p.json };
  },
  run: (req, out) => hookRun(req, out),
};

const statusCommand: LeanCommand<{ path: string; json: boolean }> = {
  parse: (args) => pathAndFlags(args, ['json']),
  run: (req, out) => showStatus(req, out),
};

/**
 * `mcp [--stdio] [--repo DIR]…` while a daemon runs: an agent's client starts it and waits for
 * its first answer. Anything else (`--http`, no daemon socket, a daemon that cannot answer for
 * these repositories) is oclif's, which serves in-process.
 */
const mcpCommand: LeanCommand<{ repos: string[] }> = {
  parse(args) {
    if (process.env.TRAVSR_DAEMON === '0' || !existsSync(daemonPaths().socket)) return undefined;
    const repos: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (a === '--stdio') continue;
      if (a === '--repo' && i + 1 < args.length) repos.push(args[++i]!);
      else if (a.startsWith('--repo=')) repos.push(a.slice('--repo='.length));
      else return undefined;
    }
    if (!repos.every((r) => statSync(r, { throwIfNoEntry: false })?.isDirectory())) return undefined;
    return { repos: repos.length > 0 ? repos : ['.'] };
  },
  async run(req, out) {
    const { relayMcpStdio } = await import('../daemon/mcp-relay.js');
    return (await relayMcpStdio(req.repos, (m) => out.logToStderr(`travsr mcp: ${m}`))) ? undefined : 'oclif';
  },
};

/** The commands that start without oclif: what the post-commit hook runs, and what agents and people run most. */
const LEAN_COMMANDS: Record<string, LeanCommand<never>> = {
  'hook-run': hookRunCommand as LeanCommand<never>,
  status: statusCommand as LeanCommand<never>,
  mcp: mcpCommand as LeanCommand<never>,
};

/** The commands {@link runLeanEntry} takes (bin/run.js lists them too, so that other commands never load this entry). */
export const LEAN_COMMAND_NAMES: readonly string[] = Object.keys(LEAN_COMMANDS);

/** True for a command {@link runLeanEntry} may take (it may still leave the arguments to oclif). */
export function isLeanCommand(command: string | undefined): boolean {
  return command !== undefined && Object.hasOwn(LEAN_COMMANDS, command);
}

/**
 * The lean entry of the CLI: `bin/run.js` comes here first for `hook-run` (after every commit)
 * and `status`, without loading oclif, its command manifest and every command's modules (and
 * compiles this entry's bundle from V8's code cache, see `code-cache.ts`). It takes only what the
 * hook and a person at the terminal pass — an existing directory and the command's boolean flags —
 * and returns undefined for anything else (`--help`, an unknown flag, a path that does not exist),
 * which oclif then handles with its usual messages. Output and errors look as the oclif
 * commands' do: lines through `terminalText`, an error with a code as `Error [CODE]: …`, exit code 1.
 *
 * @example
 * ```ts
 * const code = await runLeanEntry(['hook-run', '--from-hook']);
 * if (code === undefined) await execute({ dir: import.meta.url }); // not ours: oclif
 * ```
 */
export async function runLeanEntry(args: readonly string[]): Promise<number | undefined> {
  const [command, ...rest] = args;
  if (!isLeanCommand(command)) return undefined;
  const lean = LEAN_COMMANDS[command!]!;
  const req = lean.parse(rest);
  if (req === undefined) return undefined;
  const out: LeanOutput = {
    log: (line) => process.stdout.write(`${terminalText(format(line))}\n`),
    logToStderr: (line) => process.stderr.write(`${terminalText(format(line))}\n`),
  };
  try {
    if ((await lean.run(req, out)) === 'oclif') return undefined;
    return 0;
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    out.logToStderr(`Error${typeof code === 'string' ? ` [${code}]` : ''}: ${(e as Error).message}`);
    return 1;
  }
}
