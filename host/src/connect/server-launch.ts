import { existsSync } from 'node:fs';
import { ConnectError } from './errors.js';
import { hostPackagePath } from '../paths/host-package.js';

/** How an MCP client starts the Travsr server: a program, its arguments, extra environment. */
export interface ServerLaunch {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/**
 * The CLI's entry script, `bin/run.js` of this package (the `bin.travsr` of host/package.json).
 * @throws ConnectError `TRAVSR_ENTRY_NOT_FOUND` when the package is laid out otherwise.
 */
export function travsrEntryScript(): string {
  const script = hostPackagePath('bin', 'run.js');
  if (!existsSync(script))
    throw new ConnectError(
      'TRAVSR_ENTRY_NOT_FOUND',
      `the travsr entry script ${script} does not exist, so there is nothing to point the client at; reinstall travsr, or pass --use-path to run \`travsr\` from PATH`,
    );
  return script;
}

/**
 * `travsr mcp --stdio --repo <root>` as a client should start it. By default the absolute node
 * executable and entry script, because GUI clients start servers with a minimal PATH; with
 * `usePath`, the bare `travsr` command. A non-default TRAVSR_HOME is passed on so the server sees
 * the same plugin registrations as the CLI that connected it.
 */
export function travsrServerLaunch(opts: {
  repoRoot: string;
  usePath: boolean;
  execPath: string;
  entryScript: () => string;
  travsrHome?: string | undefined;
}): ServerLaunch {
  const serverArgs = ['mcp', '--stdio', '--repo', opts.repoRoot];
  const launch: ServerLaunch = opts.usePath
    ? { command: 'travsr', args: serverArgs }
    : { command: opts.execPath, args: [opts.entryScript(), ...serverArgs] };
  if (opts.travsrHome) launch.env = { TRAVSR_HOME: opts.travsrHome };
  return launch;
}

/**
 * The repository a server entry serves, when the entry launches `travsr mcp … --repo <root>`
 * (the `travsr` command, or node with a travsr `bin/run.js`); undefined for anything else.
 */
export function travsrEntryRepo(entry: unknown): string | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const { command, args } = entry as { command?: unknown; args?: unknown };
  if (typeof command !== 'string' || !Array.isArray(args) || !args.every((a): a is string => typeof a === 'string')) return undefined;
  const launchesTravsr = /^travsr(\.cmd|\.exe)?$/i.test(command.split(/[\\/]/).pop() ?? '') || /[\\/]bin[\\/]run\.js$/.test(args[0] ?? '');
  const mcp = args.indexOf('mcp');
  const repo = args.indexOf('--repo');
  if (!launchesTravsr || mcp < 0 || repo < mcp) return undefined;
  return args[repo + 1];
}
