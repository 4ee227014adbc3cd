import { homedir } from 'node:os';
import { CLIENTS, CLIENT_IDS, clientConfigPath, clientServerEntry } from './client-configs.js';
import type { ClientId, ClientScope, HostEnvironment } from './client-configs.js';
import { ConnectError } from './errors.js';
import { travsrEntryRepo, travsrServerLaunch } from './server-launch.js';
import { applyServerChange, readClientConfig } from './write-client-config.js';
import type { ServerChangeResult } from './write-client-config.js';

/** The machine travsr runs on, as {@link clientConfigPath} needs it. */
export function currentHost(): HostEnvironment {
  return { platform: process.platform, env: process.env, homedir: homedir() };
}

/** Checks a server entry name; letters, digits, `-` and `_` are safe in every client. */
export function checkServerName(name: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(name))
    throw new ConnectError(
      'SERVER_NAME_INVALID',
      `"${name}" cannot name an MCP server; use 1 to 64 letters, digits, "-" or "_" (e.g. travsr-api)`,
    );
  return name;
}

export interface ConnectRequest {
  client: ClientId;
  /** Default: the client's first scope (project where there is one). */
  scope?: ClientScope | undefined;
  name: string;
  repoRoot: string;
  remove: boolean;
  force: boolean;
  dryRun: boolean;
  usePath: boolean;
  host: HostEnvironment;
  execPath: string;
  entryScript: () => string;
  travsrHome?: string | undefined;
}

export interface ConnectOutcome extends ServerChangeResult {
  client: ClientId;
  scope: ClientScope;
  name: string;
  /** The entry written (or that would be); null when removing. */
  entry: Record<string, unknown> | null;
}

/** Writes (or removes) the Travsr server entry in one client's configuration. */
export function connectClient(req: ConnectRequest): ConnectOutcome {
  const name = checkServerName(req.name);
  const scope = req.scope ?? CLIENTS[req.client].scopes[0];
  const path = clientConfigPath(req.client, scope, req.host, req.repoRoot);
  if (req.remove) {
    const result = applyServerChange(path, { op: 'remove', name }, { dryRun: req.dryRun });
    return { ...result, client: req.client, scope, name, entry: null };
  }
  const launch = travsrServerLaunch({
    repoRoot: req.repoRoot,
    usePath: req.usePath,
    execPath: req.execPath,
    entryScript: req.entryScript,
    travsrHome: req.travsrHome,
  });
  const entry = clientServerEntry(req.client, launch);
  const result = applyServerChange(path, { op: 'set', name, entry, force: req.force }, { dryRun: req.dryRun });
  return { ...result, client: req.client, scope, name, entry };
}

/** One client configuration file as `connect --list` shows it. */
export interface ClientConfigStatus {
  client: ClientId;
  title: string;
  scope: ClientScope;
  default: boolean;
  path: string;
  exists: boolean;
  /** Entries that launch `travsr mcp`, plus the one named `name` whatever it runs. */
  servers: { name: string; repo: string | null }[];
  /** Why the file could not be read, when it could not. */
  problem?: string;
}

/** Every supported client and scope: the file, and which Travsr servers it has. Never throws for a broken file. */
export function listClientConfigs(opts: {
  name: string;
  repoRoot: string;
  host: HostEnvironment;
  clients?: readonly ClientId[];
}): ClientConfigStatus[] {
  const out: ClientConfigStatus[] = [];
  for (const client of opts.clients ?? CLIENT_IDS) {
    const spec = CLIENTS[client];
    for (const scope of spec.scopes) {
      const path = clientConfigPath(client, scope, opts.host, opts.repoRoot);
      const status: ClientConfigStatus = {
        client,
        title: spec.title,
        scope,
        default: scope === spec.scopes[0],
        path,
        exists: false,
        servers: [],
      };
      try {
        const file = readClientConfig(path);
        status.exists = file.exists;
        for (const [name, entry] of Object.entries(file.servers)) {
          const repo = travsrEntryRepo(entry);
          if (repo !== undefined || name === opts.name) status.servers.push({ name, repo: repo ?? null });
        }
      } catch (e) {
        if (!(e instanceof ConnectError)) throw e;
        status.exists = true;
        status.problem = e.message;
      }
      out.push(status);
    }
  }
  return out;
}
