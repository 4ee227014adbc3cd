import { posix, win32 } from 'node:path';
import { ConnectError } from './errors.js';
import type { ServerLaunch } from './server-launch.js';

/**
 * The MCP clients `travsr connect` knows: where each keeps its server list, per OS and scope, and
 * what an entry looks like. All three keep `{"mcpServers": {"<name>": {...}}}` in a JSON file.
 */
export const CLIENT_IDS = ['claude-desktop', 'claude-code', 'cursor'] as const;
export type ClientId = (typeof CLIENT_IDS)[number];

/** `project`: a file in the repository, for that repository only; `user`: the user's file, for every project. */
export type ClientScope = 'project' | 'user';

/** The key holding the server table in every supported client's file. */
export const MCP_SERVERS_KEY = 'mcpServers';

export interface ClientSpec {
  id: ClientId;
  title: string;
  /** Scopes the client has a file for; the first is the default. */
  scopes: readonly [ClientScope, ...ClientScope[]];
  /** What to do after writing so the client picks the server up. */
  nextStep: Partial<Record<ClientScope, string>>;
}

export const CLIENTS: Readonly<Record<ClientId, ClientSpec>> = {
  'claude-desktop': {
    id: 'claude-desktop',
    title: 'Claude Desktop',
    scopes: ['user'],
    nextStep: { user: 'quit and restart Claude Desktop to load it' },
  },
  'claude-code': {
    id: 'claude-code',
    title: 'Claude Code',
    scopes: ['project', 'user'],
    nextStep: {
      project: 'Claude Code asks you to approve servers from .mcp.json the first time it starts in this repository',
      user: 'start a new Claude Code session to load it',
    },
  },
  cursor: {
    id: 'cursor',
    title: 'Cursor',
    scopes: ['project', 'user'],
    nextStep: {},
  },
};

export function isClientId(s: string): s is ClientId {
  return (CLIENT_IDS as readonly string[]).includes(s);
}

/** The machine a path is computed for; tests pass macOS or Windows values without those machines. */
export interface HostEnvironment {
  platform: NodeJS.Platform;
  env: Readonly<Record<string, string | undefined>>;
  /** `os.homedir()`, used when the environment does not say. */
  homedir: string;
}

const pathsFor = (platform: NodeJS.Platform) => (platform === 'win32' ? win32 : posix);
const nonEmpty = (s: string | undefined): string | undefined => (s !== undefined && s.length > 0 ? s : undefined);

/**
 * The user's home directory: `HOME` when set (so tests and unusual setups can move it), else
 * `os.homedir()`. On Windows `USERPROFILE` comes first, as it does for `os.homedir()` and for the
 * clients themselves (`%USERPROFILE%\.cursor`).
 */
export function homeDirectory(host: HostEnvironment): string {
  if (host.platform === 'win32') return nonEmpty(host.env.USERPROFILE) ?? nonEmpty(host.env.HOME) ?? host.homedir;
  return nonEmpty(host.env.HOME) ?? host.homedir;
}

/**
 * The configuration file of `client` at `scope`, for the OS and environment in `host`. Pure, so the
 * macOS and Windows answers can be tested on Linux.
 * @throws ConnectError `CLIENT_SCOPE_UNSUPPORTED` for a scope the client has no file for.
 */
export function clientConfigPath(client: ClientId, scope: ClientScope, host: HostEnvironment, repoRoot: string): string {
  if (!CLIENTS[client].scopes.includes(scope))
    throw new ConnectError(
      'CLIENT_SCOPE_UNSUPPORTED',
      `${CLIENTS[client].title} has no ${scope}-scope configuration; use --scope ${CLIENTS[client].scopes.join(' or --scope ')}`,
    );
  const p = pathsFor(host.platform);
  const home = homeDirectory(host);
  switch (client) {
    case 'claude-desktop': {
      // Locations from the MCP quickstart for Claude Desktop users
      // (https://modelcontextprotocol.io/quickstart/user): macOS ~/Library/Application Support/Claude/,
      // Windows %APPDATA%\Claude\. Anthropic ships no Linux build; the community builds
      // (e.g. claude-desktop-debian) use ~/.config/Claude, i.e. $XDG_CONFIG_HOME/Claude.
      const file = 'claude_desktop_config.json';
      if (host.platform === 'darwin') return p.join(home, 'Library', 'Application Support', 'Claude', file);
      if (host.platform === 'win32') return p.join(nonEmpty(host.env.APPDATA) ?? p.join(home, 'AppData', 'Roaming'), 'Claude', file);
      // The XDG Base Directory spec says to ignore a relative XDG_CONFIG_HOME.
      const xdg = nonEmpty(host.env.XDG_CONFIG_HOME);
      return p.join(xdg && p.isAbsolute(xdg) ? xdg : p.join(home, '.config'), 'Claude', file);
    }
    case 'claude-code':
      // "MCP installation scopes" in the Claude Code docs (https://code.claude.com/docs/en/mcp):
      // project scope is `.mcp.json` at the project root, user scope the top-level `mcpServers` of
      // ~/.claude.json, which moves to $CLAUDE_CONFIG_DIR/.claude.json when that variable is set
      // (anthropics/claude-code#48448 shows `claude mcp add --scope user` writing there).
      if (scope === 'project') return p.join(repoRoot, '.mcp.json');
      return p.join(nonEmpty(host.env.CLAUDE_CONFIG_DIR) ?? home, '.claude.json');
    case 'cursor':
      // "Configuration locations" in Cursor's MCP docs (https://cursor.com/docs/mcp): project
      // `.cursor/mcp.json`, global `~/.cursor/mcp.json` (%USERPROFILE%\.cursor\mcp.json on Windows).
      return scope === 'project' ? p.join(repoRoot, '.cursor', 'mcp.json') : p.join(home, '.cursor', 'mcp.json');
  }
}

/**
 * The server entry `client` expects for a stdio server. Claude Code's files carry `"type": "stdio"`
 * (what `claude mcp add` writes); Claude Desktop and Cursor take `command`/`args`/`env` alone.
 */
export function clientServerEntry(client: ClientId, launch: ServerLaunch): Record<string, unknown> {
  const base = { command: launch.command, args: [...launch.args], ...(launch.env ? { env: { ...launch.env } } : {}) };
  switch (client) {
    case 'claude-code':
      return { type: 'stdio', ...base };
    case 'claude-desktop':
    case 'cursor':
      return base;
  }
}
