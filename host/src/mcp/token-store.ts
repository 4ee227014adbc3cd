import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { travsrHome } from '../paths/travsr-home.js';
import type { AccessPolicy } from '../retrieval/access-policy.js';
import { McpServerError } from './errors.js';

/** One bearer token of the MCP HTTP server, as stored: the token itself is never kept, only its sha256. */
export interface TokenEntry {
  readonly name: string;
  /** Lowercase hex sha256 of the token text. */
  readonly sha256: string;
  readonly corpora: readonly string[] | '*';
  readonly groups: readonly string[];
  /** ISO 8601 time of creation. */
  readonly createdAt: string;
}

/** What `TokenStore.add` needs to make a token. */
export interface NewToken {
  name: string;
  /** The corpora the token may read, or `'*'` for all of them. */
  corpora: readonly string[] | '*';
  /** The ACL groups the token's holder belongs to. */
  groups?: readonly string[];
}

/** Every token starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const TOKEN_PREFIX = 'travsr_';

const FILE_VERSION = 1;
const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const SHA256_RE = /^[0-9a-f]{64}$/;

/** The token file: `<TRAVSR_HOME>/mcp-tokens.json`. */
export function mcpTokensPath(home: string = travsrHome()): string {
  return join(home, 'mcp-tokens.json');
}

/** Lowercase hex sha256 of a token's text: what the store keeps and compares. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * The bearer tokens of the MCP HTTP server, kept in a JSON file (mode 0600, replaced atomically).
 * A token is shown once, by `add`, and only its sha256 is stored. The file is re-read when it
 * changes on disk, so a token removed by `travsr mcp token remove` stops working in a running
 * server from its next request.
 *
 * @example
 * const store = TokenStore.load();
 * const { token } = store.add({ name: 'ci', corpora: ['github.com/acme/api'], groups: ['eng'] });
 * store.policyFor(token); // { corpora: ['github.com/acme/api'], groups: ['eng'] }
 */
export class TokenStore {
  private entries: TokenEntry[] = [];
  /** The file as last read or written, to notice changes made by another process. */
  private seen: FileIdentity | undefined;

  private constructor(readonly path: string) {}

  /** Reads the token file at `path` (default `<TRAVSR_HOME>/mcp-tokens.json`); a missing file is an empty store. */
  static load(path: string = mcpTokensPath()): TokenStore {
    const store = new TokenStore(path);
    store.refresh();
    return store;
  }

  /** The stored tokens, oldest first. */
  list(): TokenEntry[] {
    this.refresh();
    return this.entries.map(copyEntry);
  }

  /** Makes a token, stores its hash and returns the token text, which cannot be recovered later. */
  add(spec: NewToken): { token: string; entry: TokenEntry } {
    checkName(spec.name);
    const corpora = checkCorpora(spec.corpora);
    const groups = checkGroups(spec.groups ?? []);
    this.refresh();
    if (this.entries.some((e) => e.name === spec.name))
      throw new McpServerError(
        'MCP_TOKEN_EXISTS',
        `a token named "${spec.name}" already exists in ${this.path}; choose another name, or remove it first with \`travsr mcp token remove ${spec.name}\``,
        this.path,
      );
    const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const entry: TokenEntry = { name: spec.name, sha256: hashToken(token), corpora, groups, createdAt: new Date().toISOString() };
    this.write([...this.entries, entry]);
    return { token, entry: copyEntry(entry) };
  }

  /** Deletes the token named `name` and returns what it was; clients holding it are refused from then on. */
  remove(name: string): TokenEntry {
    this.refresh();
    const found = this.entries.find((e) => e.name === name);
    if (!found) {
      const names = this.entries.map((e) => e.name);
      throw new McpServerError(
        'MCP_TOKEN_NOT_FOUND',
        `no token named "${name}" in ${this.path}; ${names.length ? `the tokens are: ${names.join(', ')}` : 'there are no tokens'} (see \`travsr mcp token list\`)`,
        this.path,
      );
    }
    this.write(this.entries.filter((e) => e !== found));
    return copyEntry(found);
  }

  /**
   * The entry of the token whose text is `presented`, or undefined. The sha256 of `presented` is
   * compared with every stored hash in constant time, so the timing says nothing about near misses.
   */
  authenticate(presented: string): TokenEntry | undefined {
    this.refresh();
    const digest = Buffer.from(hashToken(presented), 'hex');
    let match: TokenEntry | undefined;
    for (const e of this.entries) if (timingSafeEqual(digest, Buffer.from(e.sha256, 'hex')) && !match) match = e;
    return match && copyEntry(match);
  }

  /** The access policy of the token whose text is `presented`, or undefined when no stored token matches. */
  policyFor(presented: string): AccessPolicy | undefined {
    const e = this.authenticate(presented);
    return e && { corpora: e.corpora, groups: e.groups };
  }

  /** Re-reads the file when it changed on disk since it was last read or written. */
  private refresh(): void {
    const now = identify(this.path);
    if (sameFile(now, this.seen) && this.seen !== undefined) return;
    if (now === undefined) {
      this.entries = [];
      this.seen = undefined;
      return;
    }
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (e) {
      throw new McpServerError(
        'MCP_TOKENS_UNREADABLE',
        `cannot read the MCP token file ${this.path}: ${(e as Error).message}; check its permissions`,
        this.path,
      );
    }
    this.entries = parseTokenFile(text, this.path);
    this.seen = now;
  }

  private write(entries: TokenEntry[]): void {
    const doc = { version: FILE_VERSION, tokens: entries };
    const text = `${JSON.stringify(doc, null, 2)}\n`;
    let tmp: string | undefined;
    try {
      mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
      tmp = `${this.path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
      const fd = openSync(tmp, 'wx', 0o600);
      try {
        writeSync(fd, text);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, this.path);
      tmp = undefined;
    } catch (e) {
      if (tmp) rmSync(tmp, { force: true });
      throw new McpServerError(
        'MCP_TOKENS_UNWRITABLE',
        `cannot write the MCP token file ${this.path}: ${(e as Error).message}; check the permissions of ${dirname(this.path)}`,
        this.path,
      );
    }
    this.entries = entries;
    this.seen = identify(this.path);
  }
}

/** Parses the text of a token file; anything malformed is an `MCP_TOKENS_INVALID` naming the file. */
export function parseTokenFile(text: string, path: string): TokenEntry[] {
  const bad = (why: string) =>
    new McpServerError(
      'MCP_TOKENS_INVALID',
      `the MCP token file ${path} is not valid: ${why}. Fix it, or delete it and create tokens again with \`travsr mcp token add\` (every token in it then stops working)`,
      path,
    );
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw bad(`it is not JSON (${(e as Error).message})`);
  }
  if (!isRecord(doc) || !Array.isArray(doc.tokens)) throw bad('expected an object with a "tokens" array');
  if (doc.version !== FILE_VERSION) throw bad(`expected "version": ${FILE_VERSION}, found ${JSON.stringify(doc.version)}`);
  const names = new Set<string>();
  const hashes = new Set<string>();
  return (doc.tokens as unknown[]).map((raw, i) => {
    const where = `tokens[${i}]`;
    if (!isRecord(raw)) throw bad(`${where} is not an object`);
    const { name, sha256, corpora, groups, createdAt } = raw;
    if (typeof name !== 'string' || !NAME_RE.test(name)) throw bad(`${where}.name is not a token name`);
    if (typeof sha256 !== 'string' || !SHA256_RE.test(sha256)) throw bad(`${where}.sha256 is not 64 lowercase hex digits`);
    if (corpora !== '*' && !isStringArray(corpora)) throw bad(`${where}.corpora is neither "*" nor a list of strings`);
    if (!isStringArray(groups)) throw bad(`${where}.groups is not a list of strings`);
    if (typeof createdAt !== 'string') throw bad(`${where}.createdAt is not a string`);
    if (names.has(name)) throw bad(`the name "${name}" appears twice`);
    if (hashes.has(sha256)) throw bad(`the token "${name}" has the same hash as another`);
    names.add(name);
    hashes.add(sha256);
    return { name, sha256, corpora, groups, createdAt };
  });
}

function checkName(name: string): void {
  if (!NAME_RE.test(name))
    throw new McpServerError(
      'MCP_TOKEN_NAME_INVALID',
      `"${name}" cannot name a token: use 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit`,
    );
}

function checkCorpora(corpora: readonly string[] | '*'): readonly string[] | '*' {
  if (corpora === '*') return '*';
  const list = [...new Set(corpora.map((c) => c.trim()))];
  if (list.length === 0)
    throw new McpServerError(
      'MCP_TOKEN_POLICY_INVALID',
      'a token needs at least one corpus it may read; name them (`--corpus <corpus>`, repeatable) or allow all (`--all-corpora`)',
    );
  for (const c of list)
    if (c === '' || c === '*' || /\p{Cc}/u.test(c))
      throw new McpServerError(
        'MCP_TOKEN_POLICY_INVALID',
        `${JSON.stringify(c)} is not a corpus name; use --all-corpora for every corpus, or name one (e.g. github.com/acme/api)`,
      );
  return list;
}

function checkGroups(groups: readonly string[]): readonly string[] {
  const list = [...new Set(groups.map((g) => g.trim()))];
  for (const g of list)
    if (g === '' || g.includes(',') || /\p{Cc}/u.test(g))
      throw new McpServerError(
        'MCP_TOKEN_POLICY_INVALID',
        `${JSON.stringify(g)} is not a group name: node ACLs are comma-separated lists of groups, so a group name is non-empty and has no comma`,
      );
  return list;
}

function copyEntry(e: TokenEntry): TokenEntry {
  return { ...e, corpora: e.corpora === '*' ? '*' : [...e.corpora], groups: [...e.groups] };
}

type FileIdentity = Pick<Stats, 'ino' | 'size' | 'mtimeMs' | 'ctimeMs'>;

function identify(path: string): FileIdentity | undefined {
  try {
    const { ino, size, mtimeMs, ctimeMs } = statSync(path);
    return { ino, size, mtimeMs, ctimeMs };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new McpServerError(
      'MCP_TOKENS_UNREADABLE',
      `cannot read the MCP token file ${path}: ${(e as Error).message}; check the permissions of its folder`,
      path,
    );
  }
}

function sameFile(a: FileIdentity | undefined, b: FileIdentity | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}
