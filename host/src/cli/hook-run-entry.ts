import { statSync } from 'node:fs';
import { format } from 'node:util';
import { terminalText } from '../log/terminal-text.js';
import { hookRun, type HookRunRequest } from './hook-run-action.js';

/**
 * The lean entry of `travsr hook-run`, which the post-commit hook runs after every commit:
 * `bin/run.js` comes here first, without loading oclif and the command manifest (some 60 ms of
 * every commit). It takes only what the hook and a person at the terminal pass — an existing
 * directory, `--from-hook`, `--json` — and returns undefined for anything else (`--help`, an
 * unknown flag, a path that does not exist), which oclif then handles with its usual messages.
 * Output and errors look as the oclif command's do: lines through `terminalText`, an error with
 * a code as `Error [CODE]: …`, exit code 1.
 *
 * @example
 * ```ts
 * const code = await runHookRunEntry(['--from-hook']);
 * if (code === undefined) await execute({ dir: import.meta.url }); // not ours: oclif
 * ```
 */
export async function runHookRunEntry(args: readonly string[]): Promise<number | undefined> {
  const req = parse(args);
  if (!req) return undefined;
  const out = {
    log: (line: string) => process.stdout.write(`${terminalText(format(line))}\n`),
    logToStderr: (line: string) => process.stderr.write(`${terminalText(format(line))}\n`),
  };
  try {
    await hookRun(req, out);
    return 0;
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    out.logToStderr(`Error${typeof code === 'string' ? ` [${code}]` : ''}: ${(e as Error).message}`);
    return 1;
  }
}

/** `[path] [--from-hook] [--json]`, the path an existing directory; undefined for anything else. */
function parse(args: readonly string[]): HookRunRequest | undefined {
  let path: string | undefined;
  let fromHook = false;
  let json = false;
  for (const a of args) {
    if (a === '--from-hook') fromHook = true;
    else if (a === '--json') json = true;
    else if (a.startsWith('-') || path !== undefined) return undefined;
    else path = a;
  }
  path ??= '.';
  if (!statSync(path, { throwIfNoEntry: false })?.isDirectory()) return undefined;
  return { path, fromHook, json };
}
