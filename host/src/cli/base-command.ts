import { Command, Errors } from '@oclif/core';

/**
 * Base of every travsr command: errors carrying a `code` are rendered once, as
 * `Error [CODE]: what happened…`, with exit code 1 (2 for usage errors, from oclif).
 */
export abstract class TravsrCommand extends Command {
  protected override async catch(err: Error & { code?: string; exitCode?: number; oclif?: unknown }): Promise<unknown> {
    if (err instanceof Errors.ExitError || (err.oclif && !err.code)) return super.catch(err);
    if (typeof err.code === 'string' && !(err instanceof Errors.CLIError)) {
      this.logToStderr(`Error [${err.code}]: ${err.message}`);
      this.exit(1);
    }
    return super.catch(err);
  }
}
