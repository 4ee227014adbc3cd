import { RepoFileReader, type RepoFileRead, type RepoFileRefusal } from './repo-file-reader.js';
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
  changed: boolean;
  /** The snippets asked for, by lines and limit: the same object again for the same question (see {@link SourceReader.snippet}). */
  snippets: Map<string, Snippet>;
}

/**
 * Reads node source from the working tree for snippets, through {@link RepoFileReader}
 * (no links, regular files only, size cap, content checked against the indexed sha256).
 * Files are read once per reader (a reader lives for one request, or one server with
 * {@link clear} after reindexing). A file that cannot be read safely gives no snippet,
 * never an error; {@link refusal} says why.
 *
 * A snippet is made once per file read and lines asked for: a server answering many questions
 * gets the same {@link Snippet} object for a definition each time, so what is derived from it
 * (get_context's token counts, context-render.ts) can be remembered by the object, and is
 * forgotten with the file.
 */
export class SourceReader {
  private readonly files = new Map<string, SourceFile | Extract<RepoFileRead, { ok: false }>>();
  private readonly reader: RepoFileReader;

  constructor(repoRoot: string) {
    this.reader = new RepoFileReader(repoRoot);
  }

  /**
   * Lines of `path` (1-based `start`..`end`, inclusive), or undefined when unreadable. The
   * snippet is shared: callers must not change it.
   */
  snippet(
    path: string,
    startLine: number,
    endLine: number,
    opts: { maxLines: number; indexedSha256: string | undefined },
  ): Snippet | undefined {
    const file = this.read(path, opts.indexedSha256);
    if (!('lines' in file) || startLine < 1) return undefined;
    const key = `${startLine}:${endLine}:${opts.maxLines}`;
    const made = file.snippets.get(key);
    if (made) return made;
    const snippet = this.cut(path, file, startLine, endLine, opts.maxLines);
    if (snippet) file.snippets.set(key, snippet);
    return snippet;
  }

  private cut(path: string, file: SourceFile, startLine: number, endLine: number, maxLines: number): Snippet | undefined {
    const last = Math.min(Math.max(endLine, startLine), file.lines.length);
    if (startLine > last) return undefined;
    let lines = file.lines.slice(startLine - 1, last);
    let truncated = false;
    if (lines.length > maxLines) {
      // Keep the head (signature, doc, first statements) and the last line; say what was cut.
      const head = Math.max(1, maxLines - 2);
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
      // Counted when asked for: get_context counts the rendered item instead.
      get tokens() {
        return countTokens(text);
      },
      truncated,
      stale: file.changed,
    };
  }

  /** Why `path` gave no snippet (after {@link snippet} was asked for it), or undefined when it did. */
  refusal(path: string): { refusal: RepoFileRefusal; detail: string } | undefined {
    const file = this.files.get(path);
    return file && 'refusal' in file ? { refusal: file.refusal, detail: file.detail } : undefined;
  }

  /** Forgets cached files. */
  clear(): void {
    this.files.clear();
  }

  /** Forgets the cached files of `paths` (those a new graph version changed). */
  forget(paths: Iterable<string>): void {
    for (const p of paths) this.files.delete(p);
  }

  private read(path: string, indexedSha256: string | undefined): SourceFile | Extract<RepoFileRead, { ok: false }> {
    const cached = this.files.get(path);
    if (cached) return cached;
    const r = this.reader.read(path, indexedSha256);
    const file = r.ok
      ? { lines: r.bytes.toString('utf8').split(/\r?\n/), sha256: r.sha256, changed: r.changed, snippets: new Map<string, Snippet>() }
      : r;
    this.files.set(path, file);
    return file;
  }
}
