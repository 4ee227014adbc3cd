import { format } from 'node:util';
import { Command, Errors } from '@oclif/core';
import { terminalText } from '../log/terminal-text.js';

/**
 * Base of every travsr command: errors carrying a `code` are rendered once, as
 * `Error [CODE]: what happened…`, with exit code 1 (2 for usage errors, from oclif).
 *
 * It is also the output boundary: what commands print embeds file names, repository
 * source, plugin diagnostics and stderr tails, so every line written through `log`,
 * `logToStderr`, `warn` and every error message passes {@link terminalText} (escape
 * sequences and bidi controls shown visibly). `--json` output passes too and stays the same
 * JSON value: JSON.stringify escapes C0 itself, and DEL, C1 and bidi controls become `\u` escapes (`\u202e`).
 */
export abstract class TravsrCommand extends Command {
  override log(message = '', ...args: unknown[]): void {
    super.log(terminalText(format(message, ...args)));
  }

  override logToStderr(message = '', ...args: unknown[]): void {
    super.logToStderr(terminalText(format(message, ...args)));
  }

  override warn(input: string | Error): string | Error {
    if (typeof input === 'string') return super.warn(terminalText(input));
    input.message = terminalText(input.message);
    return super.warn(input);
  }

  protected override async catch(err: Error & { code?: string; exitCode?: number; oclif?: unknown }): Promise<unknown> {
    if (err instanceof Errors.ExitError || (err.oclif && !err.code)) return super.catch(safeForTerminal(err));
    if (typeof err.code === 'string' && !(err instanceof Errors.CLIError)) {
      this.logToStderr(`Error [${err.code}]: ${err.message}`);
      this.exit(1);
    }
    return super.catch(safeForTerminal(err));
  }
}

/** oclif prints an error's message (or its stack): both may quote paths and plugin output. */
function safeForTerminal<E extends Error>(err: E): E {
  if (typeof err.message === 'string') err.message = terminalText(err.message);
  if (typeof err.stack === 'string') err.stack = terminalText(err.stack);
  return err;
}
