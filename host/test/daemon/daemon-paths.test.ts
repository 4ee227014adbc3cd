import { chmodSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkedSocketPath, checkPrivate, daemonPaths, ensurePrivateDirectory } from '../../src/daemon/daemon-paths.js';

describe('daemon paths', () => {
  it('live under TRAVSR_HOME/daemon, the socket overridable', () => {
    const p = daemonPaths({ TRAVSR_HOME: '/h' });
    expect(p).toMatchObject({ dir: '/h/daemon', socket: '/h/daemon/daemon.sock', tokenFile: '/h/daemon/token' });
    expect(daemonPaths({ TRAVSR_HOME: '/h', TRAVSR_DAEMON_SOCKET: '/run/t.sock' }).socket).toBe('/run/t.sock');
  });

  it('refuses a socket path longer than the OS allows, saying what to do', () => {
    const p = daemonPaths({ TRAVSR_HOME: `/tmp/${'x'.repeat(120)}` });
    expect(() => checkedSocketPath(p)).toThrow(
      expect.objectContaining({ code: 'DAEMON_INVALID_OPTION', message: expect.stringContaining('TRAVSR_DAEMON_SOCKET') }),
    );
  });

  it.skipIf(process.platform === 'win32')('refuses a directory or file other users may use, and a symbolic link', () => {
    const root = mkdtempSync(join(tmpdir(), 'travsr-daemon-paths-'));
    const dir = join(root, 'daemon');
    ensurePrivateDirectory(dir);
    expect(() => checkPrivate(dir, 0o077, 'directory')).not.toThrow();
    chmodSync(dir, 0o755);
    expect(() => ensurePrivateDirectory(dir)).toThrow(
      expect.objectContaining({ code: 'DAEMON_INSECURE', message: expect.stringContaining('chmod 700') }),
    );
    const token = join(root, 'token');
    writeFileSync(token, 'x', { mode: 0o644 });
    expect(() => checkPrivate(token, 0o077, 'token file')).toThrow(expect.objectContaining({ code: 'DAEMON_INSECURE' }));
    chmodSync(token, 0o600);
    expect(() => checkPrivate(token, 0o077, 'token file')).not.toThrow();
    mkdirSync(join(root, 'elsewhere'));
    symlinkSync(join(root, 'elsewhere'), join(root, 'link'));
    expect(() => checkPrivate(join(root, 'link'), 0o077, 'directory')).toThrow(expect.objectContaining({ code: 'DAEMON_INSECURE' }));
  });
});
