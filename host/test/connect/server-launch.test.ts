import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { travsrEntryRepo, travsrEntryScript, travsrServerLaunch } from '../../src/connect/index.js';

describe('travsrServerLaunch', () => {
  const base = { repoRoot: '/work/repo', execPath: '/usr/local/bin/node', entryScript: () => '/opt/travsr/bin/run.js' };
  it('starts `travsr mcp --stdio --repo <root>` through absolute node and script paths by default', () => {
    expect(travsrServerLaunch({ ...base, usePath: false })).toEqual({
      command: '/usr/local/bin/node',
      args: ['/opt/travsr/bin/run.js', 'mcp', '--stdio', '--repo', '/work/repo'],
    });
  });
  it('uses the bare travsr command with usePath, without needing the entry script', () => {
    const launch = travsrServerLaunch({
      ...base,
      usePath: true,
      entryScript: () => {
        throw new Error('not needed');
      },
    });
    expect(launch).toEqual({ command: 'travsr', args: ['mcp', '--stdio', '--repo', '/work/repo'] });
  });
  it('passes a TRAVSR_HOME on, so the server reads the same plugin registrations', () => {
    expect(travsrServerLaunch({ ...base, usePath: true, travsrHome: '/data/travsr' }).env).toEqual({ TRAVSR_HOME: '/data/travsr' });
  });
});

describe('travsrEntryScript', () => {
  it("is the package's bin/run.js", () => {
    const script = travsrEntryScript();
    expect(script).toMatch(/[\\/]host[\\/]bin[\\/]run\.js$/);
    expect(existsSync(script)).toBe(true);
  });
});

describe('travsrEntryRepo', () => {
  it('recognises entries that launch travsr mcp, by command or by bin/run.js', () => {
    expect(travsrEntryRepo({ command: 'travsr', args: ['mcp', '--stdio', '--repo', '/a'] })).toBe('/a');
    expect(travsrEntryRepo({ command: '/usr/bin/node', args: ['/x/bin/run.js', 'mcp', '--stdio', '--repo', '/b'] })).toBe('/b');
    expect(travsrEntryRepo({ command: 'C:\\npm\\travsr.cmd', args: ['mcp', '--repo', 'C:\\r'] })).toBe('C:\\r');
  });
  it('ignores other servers and malformed entries', () => {
    expect(travsrEntryRepo({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] })).toBeUndefined();
    expect(travsrEntryRepo({ command: 'travsr', args: ['index'] })).toBeUndefined();
    expect(travsrEntryRepo({ url: 'https://example.org/mcp' })).toBeUndefined();
    expect(travsrEntryRepo('travsr')).toBeUndefined();
    expect(travsrEntryRepo({ command: 'travsr', args: ['mcp', 3] })).toBeUndefined();
  });
});
