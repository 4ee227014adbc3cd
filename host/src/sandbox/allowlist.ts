import { isIP } from 'node:net';
import { LaunchSpecError } from './errors.js';

/**
 * Network allowlist entries, as written in a manifest (`constraints.network.allow`) or a
 * grant:
 * - `host:port` allows exactly that port;
 * - `host` allows the web ports 80 and 443 only (name a port to allow another);
 * - `*.example.com[:port]` allows every subdomain of example.com (not example.com itself).
 * Hosts compare case-insensitively, without a trailing dot. IPv6 literals go in brackets.
 */
export interface AllowEntry {
  /** The entry as written. */
  raw: string;
  /** Lower-case host, or the suffix after `*.` for a wildcard. */
  host: string;
  wildcard: boolean;
  ports: readonly number[];
}

/** Ports a bare `host` entry allows. */
export const DEFAULT_ALLOW_PORTS: readonly number[] = [80, 443];

const LABEL = '[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?';
const HOSTNAME = new RegExp(`^${LABEL}(\\.${LABEL})*$`);

/** Lower-cases `host`, drops a trailing dot and IPv6 brackets; undefined when it is not a host name or IP. */
export function normalizeHost(host: string): string | undefined {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) {
    h = h.slice(1, -1);
    return isIP(h) === 6 ? h : undefined;
  }
  if (h.endsWith('.')) h = h.slice(0, -1);
  if (h.length === 0 || h.length > 253) return undefined;
  if (isIP(h)) return h;
  return HOSTNAME.test(h) ? h : undefined;
}

/** Splits `host:port` / `[v6]:port` / `host`; port is undefined when absent, NaN when malformed. */
export function splitHostPort(value: string): { host: string; port: number | undefined } {
  const v = value.trim();
  if (v.startsWith('[')) {
    const end = v.indexOf(']');
    if (end < 0) return { host: v, port: Number.NaN };
    const rest = v.slice(end + 1);
    if (rest === '') return { host: v.slice(0, end + 1), port: undefined };
    return { host: v.slice(0, end + 1), port: rest.startsWith(':') ? parsePort(rest.slice(1)) : Number.NaN };
  }
  const colon = v.lastIndexOf(':');
  if (colon < 0) return { host: v, port: undefined };
  if (v.indexOf(':') !== colon) return { host: `[${v}]`, port: undefined }; // bare IPv6
  return { host: v.slice(0, colon), port: parsePort(v.slice(colon + 1)) };
}

function parsePort(text: string): number {
  if (!/^[0-9]{1,5}$/.test(text)) return Number.NaN;
  const n = Number(text);
  return n >= 1 && n <= 65535 ? n : Number.NaN;
}

/** Parses one allowlist entry; throws a LaunchSpecError naming the entry when it is malformed. */
export function parseAllowEntry(raw: string): AllowEntry {
  const { host, port } = splitHostPort(raw);
  const wildcard = host.startsWith('*.');
  const name = normalizeHost(wildcard ? host.slice(2) : host);
  if (!name || Number.isNaN(port) || (wildcard && isIP(name))) {
    throw new LaunchSpecError(
      `network allowlist entry ${JSON.stringify(raw)} is not "host", "host:port" or "*.domain[:port]"; fix the manifest's constraints.network.allow or the grant`,
    );
  }
  return { raw, host: name, wildcard, ports: port === undefined ? DEFAULT_ALLOW_PORTS : [port] };
}

/** Parses every entry (see {@link parseAllowEntry}). */
export function parseAllowlist(raw: readonly string[]): AllowEntry[] {
  return raw.map(parseAllowEntry);
}

function hostMatches(entry: AllowEntry, host: string): boolean {
  return entry.wildcard ? host.endsWith(`.${entry.host}`) : host === entry.host;
}

/** The first entry that allows `host:port` (host already normalized), or undefined. */
export function matchAllowlist(entries: readonly AllowEntry[], host: string, port: number): AllowEntry | undefined {
  return entries.find((e) => e.ports.includes(port) && hostMatches(e, host));
}

/** Whether everything `requested` allows is also allowed by `granted`. */
export function entryCovers(granted: AllowEntry, requested: AllowEntry): boolean {
  if (!requested.ports.every((p) => granted.ports.includes(p))) return false;
  if (!granted.wildcard) return !requested.wildcard && requested.host === granted.host;
  return requested.host === granted.host ? requested.wildcard : requested.host.endsWith(`.${granted.host}`);
}

/** Whether an entry names an IP literal or `localhost`, i.e. explicitly asks for that address. */
export function isLiteralAddressEntry(entry: AllowEntry): boolean {
  return !entry.wildcard && (isIP(entry.host) !== 0 || entry.host === 'localhost');
}
