// Where each client keeps its MCP servers. macOS and Windows do not exist here, so their paths are
// computed by the pure clientConfigPath from a platform and environment given as values (not run there).
import { describe, expect, it } from 'vitest';
import { clientConfigPath, clientServerEntry, homeDirectory, type HostEnvironment } from '../../src/connect/index.js';

const linux = (env: Record<string, string> = {}): HostEnvironment => ({
  platform: 'linux',
  env: { HOME: '/home/ada', ...env },
  homedir: '/home/os',
});
const mac: HostEnvironment = { platform: 'darwin', env: { HOME: '/Users/ada' }, homedir: '/Users/os' };
const windows = (env: Record<string, string> = {}): HostEnvironment => ({
  platform: 'win32',
  env: { USERPROFILE: 'C:\\Users\\ada', APPDATA: 'C:\\Users\\ada\\AppData\\Roaming', ...env },
  homedir: 'C:\\Users\\os',
});

describe('homeDirectory', () => {
  it('honours HOME, and falls back to os.homedir() without it', () => {
    expect(homeDirectory(linux())).toBe('/home/ada');
    expect(homeDirectory({ platform: 'linux', env: {}, homedir: '/home/os' })).toBe('/home/os');
    expect(homeDirectory({ platform: 'linux', env: { HOME: '' }, homedir: '/home/os' })).toBe('/home/os');
  });
  it('prefers USERPROFILE on Windows', () => {
    expect(homeDirectory(windows({ HOME: 'C:\\msys\\home' }))).toBe('C:\\Users\\ada');
    expect(homeDirectory({ platform: 'win32', env: {}, homedir: 'C:\\Users\\os' })).toBe('C:\\Users\\os');
  });
});

describe('clientConfigPath', () => {
  it('Claude Desktop: ~/.config/Claude on Linux, or $XDG_CONFIG_HOME/Claude when absolute', () => {
    expect(clientConfigPath('claude-desktop', 'user', linux(), '/r')).toBe('/home/ada/.config/Claude/claude_desktop_config.json');
    expect(clientConfigPath('claude-desktop', 'user', linux({ XDG_CONFIG_HOME: '/xdg' }), '/r')).toBe(
      '/xdg/Claude/claude_desktop_config.json',
    );
    // The XDG spec says a relative value is invalid and must be ignored.
    expect(clientConfigPath('claude-desktop', 'user', linux({ XDG_CONFIG_HOME: 'rel/cfg' }), '/r')).toBe(
      '/home/ada/.config/Claude/claude_desktop_config.json',
    );
  });
  it('Claude Desktop: ~/Library/Application Support/Claude on macOS (computed, not run on macOS)', () => {
    expect(clientConfigPath('claude-desktop', 'user', mac, '/r')).toBe(
      '/Users/ada/Library/Application Support/Claude/claude_desktop_config.json',
    );
  });
  it('Claude Desktop: %APPDATA%\\Claude on Windows, AppData\\Roaming without APPDATA (computed, not run on Windows)', () => {
    expect(clientConfigPath('claude-desktop', 'user', windows(), 'C:\\r')).toBe(
      'C:\\Users\\ada\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
    );
    expect(
      clientConfigPath('claude-desktop', 'user', { platform: 'win32', env: { USERPROFILE: 'D:\\u' }, homedir: 'C:\\x' }, 'C:\\r'),
    ).toBe('D:\\u\\AppData\\Roaming\\Claude\\claude_desktop_config.json');
  });
  it('Claude Desktop has no project scope', () => {
    expect(() => clientConfigPath('claude-desktop', 'project', linux(), '/r')).toThrow(
      expect.objectContaining({ code: 'CLIENT_SCOPE_UNSUPPORTED', message: expect.stringContaining('--scope user') }),
    );
  });
  it('Claude Code: .mcp.json at the repository root, ~/.claude.json for the user, $CLAUDE_CONFIG_DIR when set', () => {
    expect(clientConfigPath('claude-code', 'project', linux(), '/work/repo')).toBe('/work/repo/.mcp.json');
    expect(clientConfigPath('claude-code', 'user', linux(), '/work/repo')).toBe('/home/ada/.claude.json');
    expect(clientConfigPath('claude-code', 'user', linux({ CLAUDE_CONFIG_DIR: '/cfg/claude' }), '/r')).toBe('/cfg/claude/.claude.json');
    expect(clientConfigPath('claude-code', 'user', mac, '/r')).toBe('/Users/ada/.claude.json');
    expect(clientConfigPath('claude-code', 'user', windows(), 'C:\\r')).toBe('C:\\Users\\ada\\.claude.json');
  });
  it('Cursor: .cursor/mcp.json in the repository or in the home directory', () => {
    expect(clientConfigPath('cursor', 'project', linux(), '/work/repo')).toBe('/work/repo/.cursor/mcp.json');
    expect(clientConfigPath('cursor', 'user', linux(), '/work/repo')).toBe('/home/ada/.cursor/mcp.json');
    expect(clientConfigPath('cursor', 'user', mac, '/r')).toBe('/Users/ada/.cursor/mcp.json');
    expect(clientConfigPath('cursor', 'user', windows(), 'C:\\r')).toBe('C:\\Users\\ada\\.cursor\\mcp.json');
    expect(clientConfigPath('cursor', 'project', windows(), 'C:\\work\\repo')).toBe('C:\\work\\repo\\.cursor\\mcp.json');
  });
});

describe('clientServerEntry', () => {
  const launch = { command: '/usr/bin/node', args: ['/opt/travsr/bin/run.js', 'mcp', '--stdio', '--repo', '/r'] };
  it('marks Claude Code entries as stdio and keeps the others to command/args/env', () => {
    expect(clientServerEntry('claude-code', launch)).toEqual({ type: 'stdio', ...launch });
    expect(clientServerEntry('claude-desktop', launch)).toEqual(launch);
    expect(clientServerEntry('cursor', { ...launch, env: { TRAVSR_HOME: '/h' } })).toEqual({ ...launch, env: { TRAVSR_HOME: '/h' } });
    expect(Object.keys(clientServerEntry('cursor', launch))).toEqual(['command', 'args']);
  });
});
