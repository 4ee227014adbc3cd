import { describe, expect, it } from 'vitest';
import { DEFAULT_ALLOW_PORTS, matchAllowlist, parseAllowEntry } from '../../src/sandbox/index.js';
import { entryCovers, splitHostPort } from '../../src/sandbox/allowlist.js';

describe('allowlist entries', () => {
  it('parses host, host:port, wildcards and IPv6 literals', () => {
    expect(parseAllowEntry('Example.COM.')).toMatchObject({ host: 'example.com', wildcard: false, ports: DEFAULT_ALLOW_PORTS });
    expect(parseAllowEntry('example.com:8443')).toMatchObject({ host: 'example.com', ports: [8443] });
    expect(parseAllowEntry('*.example.com')).toMatchObject({ host: 'example.com', wildcard: true });
    expect(parseAllowEntry('[::1]:9000')).toMatchObject({ host: '::1', ports: [9000] });
  });

  it('rejects malformed entries with a message naming the entry', () => {
    for (const bad of ['', 'http://x', 'a b', 'x:0', 'x:70000', '*.1.2.3.4', 'x:port', '*']) {
      expect(() => parseAllowEntry(bad), bad).toThrow(/network allowlist entry/);
    }
  });

  it('matches a bare host on 80/443 only, a port exactly, a wildcard on subdomains only', () => {
    const list = ['example.com', 'api.example.org:8443', '*.cdn.example.net'].map(parseAllowEntry);
    expect(matchAllowlist(list, 'example.com', 443)?.raw).toBe('example.com');
    expect(matchAllowlist(list, 'example.com', 22)).toBeUndefined();
    expect(matchAllowlist(list, 'api.example.org', 8443)?.raw).toBe('api.example.org:8443');
    expect(matchAllowlist(list, 'api.example.org', 443)).toBeUndefined();
    expect(matchAllowlist(list, 'a.b.cdn.example.net', 443)?.raw).toBe('*.cdn.example.net');
    expect(matchAllowlist(list, 'cdn.example.net', 443)).toBeUndefined();
    expect(matchAllowlist(list, 'evilcdn.example.net', 443)).toBeUndefined();
  });

  it('decides whether one entry covers another (for grants)', () => {
    const c = (g: string, r: string): boolean => entryCovers(parseAllowEntry(g), parseAllowEntry(r));
    expect(c('*.example.com', 'a.example.com')).toBe(true);
    expect(c('*.example.com', '*.a.example.com')).toBe(true);
    expect(c('*.example.com', 'example.com')).toBe(false);
    expect(c('a.example.com', '*.example.com')).toBe(false);
    expect(c('a.example.com', 'a.example.com:443')).toBe(true);
    expect(c('a.example.com:443', 'a.example.com')).toBe(false);
  });

  it('splits host and port, including bracketed IPv6', () => {
    expect(splitHostPort('h:80')).toEqual({ host: 'h', port: 80 });
    expect(splitHostPort('[::1]:80')).toEqual({ host: '[::1]', port: 80 });
    expect(splitHostPort('h')).toEqual({ host: 'h', port: undefined });
  });
});
