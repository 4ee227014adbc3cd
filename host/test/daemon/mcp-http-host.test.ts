import { describe, expect, it } from 'vitest';
import { parseAddress } from '../../src/daemon/mcp-http-host.js';

describe('parseAddress (serve --mcp-http)', () => {
  it('splits host:port, [IPv6]:port and port 0', () => {
    expect(parseAddress('127.0.0.1:7433')).toEqual({ host: '127.0.0.1', port: 7433 });
    expect(parseAddress('[::1]:8080')).toEqual({ host: '::1', port: 8080 });
    expect(parseAddress('localhost:0')).toEqual({ host: 'localhost', port: 0 });
  });

  it('refuses what is not host:port with DAEMON_INVALID_OPTION, saying what to give', () => {
    for (const bad of ['7433', 'localhost', '::1:7433', '127.0.0.1:99999', '127.0.0.1:', ':7433', 'a b:1'])
      expect(() => parseAddress(bad), bad).toThrow(
        expect.objectContaining({
          code: 'DAEMON_INVALID_OPTION',
          message: expect.stringMatching(/give e\.g\. 127\.0\.0\.1:7433/),
        }) as Error,
      );
  });
});
