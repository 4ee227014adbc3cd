import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Args, Flags } from '@oclif/core';
import { TravsrCommand } from '../base-command.js';
import {
  CLIENTS,
  CLIENT_IDS,
  checkServerName,
  connectClient,
  currentHost,
  isClientId,
  listClientConfigs,
  travsrEntryScript,
  type ClientConfigStatus,
  type ConnectOutcome,
} from '../../connect/index.js';
import { findRepoRoot } from '../../git/index.js';
import { repoTravsrDir } from '../../paths/travsr-home.js';

export default class Connect extends TravsrCommand {
  static override summary = 'Add the Travsr MCP server to the configuration of an MCP client (Claude Desktop, Claude Code, Cursor)';
  static override description =
    "Writes an entry that starts `travsr mcp --stdio --repo <repository>` into the client's JSON configuration, keeping every other key and server; an existing file is backed up to <file>.travsr-backup-<time> first. Without a client (or with --list) it lists the supported clients, their files on this machine and the Travsr servers in them.";
  static override examples = [
    '<%= config.bin %> connect --list',
    '<%= config.bin %> connect claude-code',
    '<%= config.bin %> connect claude-desktop --repo ../api --name travsr-api',
    '<%= config.bin %> connect cursor --scope user --dry-run',
    '<%= config.bin %> connect claude-code --remove',
  ];
  static override args = {
    client: Args.string({ options: [...CLIENT_IDS], description: 'the MCP client to configure' }),
  };
  static override flags = {
    list: Flags.boolean({
      default: false,
      description: 'list the supported clients, their configuration files and the Travsr servers in them',
    }),
    scope: Flags.option({
      options: ['project', 'user'] as const,
      description: 'project: a file in the repository (default where the client has one); user: the user-wide file',
    })(),
    name: Flags.string({ default: 'travsr', description: 'name of the server entry (another name connects a second repository)' }),
    repo: Flags.directory({ exists: true, description: 'repository the server serves (default: the one holding the current directory)' }),
    'use-path': Flags.boolean({
      default: false,
      description:
        'write the command `travsr`, found on PATH when the client starts it, instead of absolute paths to node and this installation',
    }),
    force: Flags.boolean({ default: false, description: 'replace an entry of the same name that runs something else' }),
    remove: Flags.boolean({ default: false, description: 'remove the entry instead of adding it', exclusive: ['force', 'use-path'] }),
    'dry-run': Flags.boolean({ default: false, description: 'print the file that would be written, and its path, without writing' }),
    json: Flags.boolean({ default: false, description: 'print JSON' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Connect);
    const repoRoot = await repositoryRoot(flags.repo ?? process.cwd());
    const host = currentHost();
    const name = checkServerName(flags.name);

    if (flags.list || args.client === undefined) {
      const clients = args.client !== undefined && isClientId(args.client) ? [args.client] : undefined;
      const statuses = listClientConfigs({ name, repoRoot, host, ...(clients ? { clients } : {}) });
      if (flags.json) this.log(JSON.stringify(statuses, null, 2));
      else this.printList(statuses);
      return;
    }
    if (!isClientId(args.client)) this.error(`unknown client ${args.client}`, { exit: 2 });

    const travsrHome = process.env.TRAVSR_HOME;
    const outcome = connectClient({
      client: args.client,
      scope: flags.scope,
      name,
      repoRoot,
      remove: flags.remove,
      force: flags.force,
      dryRun: flags['dry-run'],
      usePath: flags['use-path'],
      host,
      execPath: process.execPath,
      entryScript: travsrEntryScript,
      travsrHome: travsrHome && travsrHome.length > 0 ? travsrHome : undefined,
    });
    if (!flags.remove && !existsSync(repoTravsrDir(repoRoot)))
      this.logToStderr(`note: ${repoRoot} has no Travsr index yet; run \`travsr init ${repoRoot}\` so the server has a graph to serve`);
    if (flags.json) {
      const { client, scope, path, name: entryName, backup, entry, changed, action, previous } = outcome;
      this.log(
        JSON.stringify(
          {
            client,
            scope,
            path,
            name: entryName,
            backup,
            entry,
            changed,
            action,
            previous: previous ?? null,
            dryRun: flags['dry-run'],
            ...(flags['dry-run'] ? { text: outcome.text } : {}),
          },
          null,
          2,
        ),
      );
      return;
    }
    this.printOutcome(outcome, flags['dry-run']);
  }

  private printOutcome(o: ConnectOutcome, dryRun: boolean): void {
    const title = `${CLIENTS[o.client].title} (${o.scope} scope)`;
    switch (o.action) {
      case 'unchanged':
        this.log(`"${o.name}" is already connected to ${title} in ${o.path}; nothing changed`);
        return;
      case 'absent':
        this.log(`"${o.name}" is not in ${o.path}; nothing changed`);
        return;
      case 'added':
      case 'replaced':
      case 'removed':
        break;
    }
    if (dryRun) {
      this.log(`dry run: would write ${o.path}${o.backup ? ` (after copying it to ${o.backup})` : ''}:`);
      this.log((o.text ?? '').replace(/\r?\n$/, ''));
      return;
    }
    const verb = o.action === 'removed' ? `Removed "${o.name}" from` : `${o.action === 'replaced' ? 'Replaced' : 'Added'} "${o.name}" in`;
    this.log(`${verb} ${title}: ${o.path}`);
    if (o.backup) this.log(`  previous file backed up to ${o.backup}`);
    if (o.entry) {
      const { command, args } = o.entry as { command: string; args: string[] };
      this.log(`  the client starts: ${[command, ...args].map(shellWord).join(' ')}`);
      const next = CLIENTS[o.client].nextStep[o.scope];
      if (next) this.log(`  next: ${next}`);
    }
  }

  private printList(statuses: ClientConfigStatus[]): void {
    const width = Math.max(...statuses.map((s) => s.path.length));
    for (const s of statuses) {
      const state = s.problem
        ? `cannot use it: ${s.problem}`
        : !s.exists
          ? 'no file'
          : s.servers.length === 0
            ? 'no travsr server'
            : s.servers.map((x) => `${x.name} → ${x.repo ?? '(runs something else)'}`).join(', ');
      this.log(`${s.client.padEnd(15)} ${`${s.scope}${s.default ? '*' : ''}`.padEnd(9)} ${s.path.padEnd(width)}  ${state}`);
    }
    this.log('(* default scope)  connect one with `travsr connect <client> [--scope user]`');
  }
}

/** The repository holding `dir`: its git top level, or `dir` itself outside git or without git. */
async function repositoryRoot(dir: string): Promise<string> {
  const abs = resolve(dir);
  try {
    return (await findRepoRoot(abs)) ?? abs;
  } catch (e) {
    if ((e as { code?: unknown }).code === 'GIT_NOT_INSTALLED') return abs;
    throw e;
  }
}

/** A word as a POSIX shell would need it, for showing the command line. */
function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
