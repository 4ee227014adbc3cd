import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The per-user Travsr directory: `$TRAVSR_HOME` when set (tests and unusual setups),
 * otherwise `~/.travsr`. Holds lang.toml, installed plugins and traces made outside a repository.
 */
export function travsrHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.TRAVSR_HOME && env.TRAVSR_HOME.length > 0 ? env.TRAVSR_HOME : join(homedir(), '.travsr');
}

/** The per-repository Travsr directory, `<repo>/.travsr`. */
export function repoTravsrDir(repoRoot: string): string {
  return join(repoRoot, '.travsr');
}
