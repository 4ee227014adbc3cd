import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from './token-count.js';

/** A piece of source shown to the agent, with its weight in tokens. */
export interface Snippet {
  path: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  text: string;
  tokens: number;
  /** True when the node was longer than the snippet limit and its middle was left out. */
  truncated: boolean;
  /** True when the file changed since it was indexed: the lines may be off. */
  stale: boolean;
}

interface SourceFile {
  lines: string[];
  sha256: string;
}

/**
 * Reads node source from the working tree for snippets. Files are read once per reader
 * (a reader lives for one request, or one server with {@link clear} after reindexing).
 * A path that escapes the repository or cannot be read gives no snippet, never an error.
 */
export class SourceReader {
  private readonly files = new Map<string, SourceFile | null>();

  constructor(private readonly repoRoot: string) {}

  /** Lines of `path` (1-based `start`..`end`, inclusive), or undefined when unreadable. */
  snippet(
    path: string,
    startLine: number,
    endLine: number,
    opts: { maxLines: number; indexedSha256?: string | undefined },
  ): Snippet | undefined {
    const file = this.read(path);
    if (!file || startLine < 1) return undefined;
    const last = Math.min(Math.max(endLine, startLine), file.lines.length);
    if (startLine > last) return undefined;
    let lines = file.lines.slice(startLine - 1, last);
    let truncated = false;
    if (lines.length > opts.maxLines) {
      // Keep the head (signature, doc, first statements) and the last line; say what was cut.
      const head = Math.max(1, opts.maxLines - 2);
      const cut = lines.length - head - 1;
      lines = [...lines.slice(0, head), `… (${cut} lines elided: ${startLine + head}–${last - 1})`, lines[lines.length - 1]!];
      truncated = true;
    }
    const text = lines.join('\n');
    return {
      path,
      startLine,
      endLine: last,
      text,
      tokens: countTokens(text),
      truncated,
      stale: opts.indexedSha256 !== undefined && opts.indexedSha256 !== file.sha256,
    };
  }

  /** Forgets cached files. */
  clear(): void {
    this.files.clear();
  }

  private read(path: string): SourceFile | undefined {
    if (this.files.has(path)) return this.files.get(path) ?? undefined;
    let file: SourceFile | null = null;
    if (!path.startsWith('/') && !path.split('/').includes('..')) {
      try {
        const bytes = readFileSync(join(this.repoRoot, path));
        file = { lines: bytes.toString('utf8').split(/\r?\n/), sha256: createHash('sha256').update(bytes).digest('hex') };
      } catch {
        file = null;
      }
    }
    this.files.set(path, file);
    return file ?? undefined;
  }
}
