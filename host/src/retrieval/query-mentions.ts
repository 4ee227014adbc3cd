/**
 * What a question names explicitly: code identifiers and file paths. An agent's question or
 * an issue text often quotes the function that fails (`Session.resolve_redirects`), a stack
 * frame (`File "requests/models.py", line 80, in register_hook`) or a path; these are far
 * stronger evidence than any single word, so get_context seeds them directly.
 */
export interface QueryMentions {
  /** Identifiers that look like code (camelCase, snake_case, dotted, called, quoted): last segments and whole dotted names. */
  identifiers: string[];
  /** Path-like mentions (`a/b.py`, `models.py`), without leading `./`. */
  paths: string[];
  /** Identifiers of stack-trace frames (`in <name>`), innermost last. */
  frames: string[];
  /** The stack-trace frames themselves (format by format, each in the order of the text): where each is and in what function. */
  frameSites: FrameSite[];
  /**
   * Runs of four words from the question's lines and quotes (messages, output, code lines),
   * as identifier tokens: a message the code prints matches its source verbatim.
   */
  phrases: string[][];
  /** The question's words (lower case, 4+ letters), to match file and directory names. */
  words: string[];
}

const PHRASE = 4;
const MAX_PHRASES = 160;
// Each identifier and path is looked up on its own: a long log is read for at most this many,
// the frames' first (they come first), then the quoted code's, then the rest in order.
const MAX_IDENTIFIERS = 256;
const MAX_PATHS = 64;
const MAX_FRAME_SITES = 256;

/** One frame of a stack trace quoted in a question: its file, line and function, as far as the format gives them. */
export interface FrameSite {
  path?: string;
  /** 1-based. */
  line?: number;
  /** The function as a dotted name (`Session.send`, `handle`). */
  name?: string;
}

/** One stack-frame format: where a frame is, and its function (as a dotted name) and file. */
interface FrameFormat {
  pattern: RegExp;
  read(m: RegExpMatchArray): FrameSite;
}

/** `a::b::C::d` (Rust) as `C.d`, `pkg.(*T).m` (Go) as `T.m`: the owner, when there is one, and the function. */
function lastTwo(segments: string[]): string {
  const [owner, fn] = segments.slice(-2);
  return fn === undefined ? owner! : /^[A-Z]/.test(owner!) ? `${owner}.${fn}` : fn;
}

/**
 * The stack-frame formats read (file, line, function):
 * - Python: `File "x/y.py", line 12, in name`
 * - JavaScript/TypeScript: `at name (x/y.ts:12:3)`, `at async Class.name (…)`, `at x/y.js:12:3`
 * - Java/Kotlin/Scala: `at com.acme.Foo.bar(Foo.java:123)`
 * - Go: `main.(*Server).handle(0xc0…)` then `\t/src/app/server.go:42 +0x1d`
 * - Rust: `  3: app::server::Server::handle` then `at ./src/server.rs:42:5`; `panicked at src/main.rs:10:5`
 */
export const STACK_FRAMES: readonly FrameFormat[] = [
  {
    pattern: /File "([^"]+)", line (\d+), in ([A-Za-z_][\w.<>]*)/g,
    read: (m) => ({ path: m[1]!, line: Number(m[2]), name: m[3]! }),
  },
  {
    pattern: /\bat (?:async )?(?:new )?([A-Za-z_$][\w$.]*) \(([^():]+):(\d+)(?::\d+)?\)/g,
    read: (m) => ({ name: m[1]!, path: m[2]!, line: Number(m[3]) }),
  },
  {
    pattern: /^\s*at ((?:file:\/\/)?[^\s():]+\.(?:[cm]?[jt]sx?)):(\d+):\d+$/gm,
    read: (m) => ({ path: m[1]!.replace(/^file:\/\//, ''), line: Number(m[2]) }),
  },
  {
    pattern: /\bat ((?:[\w$]+\.)+)([\w$<>]+)\(([\w$-]+\.(?:java|kt|scala|groovy)):(\d+)\)/g,
    read: (m) => ({ name: lastTwo([...m[1]!.split('.').filter(Boolean), m[2]!]), path: m[3]!, line: Number(m[4]) }),
  },
  {
    pattern: /^[\w.\/-]{0,200}?\.(?:\(\*?(\w{1,128})\)\.)?(\w{1,128})\([^\n]*\)\n\s+([^\s:]+\.go):(\d+)/gm,
    read: (m) => ({ name: m[1] ? `${m[1]}.${m[2]!}` : m[2]!, path: m[3]!, line: Number(m[4]) }),
  },
  {
    pattern: /^\s*\d+: ([\w:<>]+?)(?:::h[0-9a-f]{16})?\n\s+at ([^\s:]+\.rs):(\d+)(?::\d+)?/gm,
    read: (m) => ({
      name: lastTwo(m[1]!.split('::').filter((x) => /^\w+$/.test(x))),
      path: m[2]!.replace(/^\.\//, ''),
      line: Number(m[3]),
    }),
  },
  {
    pattern: /\bpanicked at '?([^\s:']+\.rs):(\d+)(?::\d+)?/g,
    read: (m) => ({ path: m[1]!.replace(/^\.\//, ''), line: Number(m[2]) }),
  },
];

const STOP = new Set(['self', 'this', 'none', 'null', 'true', 'false', 'the', 'and', 'for', 'def', 'class', 'import', 'from', 'return']);

/** Extracts the {@link QueryMentions} of a question or issue text. */
export function queryMentions(text: string): QueryMentions {
  const identifiers = new Set<string>();
  const paths = new Set<string>();
  const frames: string[] = [];
  const frameSites: FrameSite[] = [];
  const add = (raw: string) => {
    const id = raw.replace(/^[^A-Za-z_$]+|[^A-Za-z0-9_$]+$/g, '');
    if (id.length < 3 || STOP.has(id.toLowerCase())) return;
    identifiers.add(id);
    const parts = id.split('.').filter((p) => p.length > 0);
    if (parts.length > 1) {
      const last = parts[parts.length - 1]!;
      if (last.length >= 3 && !STOP.has(last.toLowerCase())) identifiers.add(last);
      // `Session.request` also names the class
      const prev = parts[parts.length - 2]!;
      if (/^[A-Z]/.test(prev) && prev.length >= 3) identifiers.add(prev);
    }
  };
  // Stack frames, in the formats of the languages' own traces (see STACK_FRAMES).
  for (const frame of STACK_FRAMES)
    for (const m of text.matchAll(frame.pattern)) {
      const site = frame.read(m);
      const { name, path } = site;
      if (frameSites.length < MAX_FRAME_SITES) frameSites.push(site);
      if (path) paths.add(path);
      if (name && !name.startsWith('<')) frames.push(name);
    }
  for (const f of frames) add(f);
  // Quoted code: `x`, ``x``, and fenced blocks' identifiers with code shape.
  // In quoted code a hyphenated name is one name: a command-line option or config key
  // (`--collect-only`, `min-similarity-lines`), found in the code as the same token run.
  for (const m of text.matchAll(/`+([^`\n]{1,200})`+/g)) {
    for (const w of m[1]!.matchAll(/[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/g)) add(w[0]);
    for (const w of m[1]!.matchAll(/[A-Za-z_$][\w$]*(?:-[A-Za-z0-9_]+)+/g)) add(w[0]);
  }
  // Code-shaped words anywhere: snake_case, camelCase, PascalCase with an inner capital, dotted, called.
  for (const m of text.matchAll(
    /[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+|[A-Za-z_$][\w$]*(?=\()|\b[a-z]+_[a-z0-9_]+\b|\b[a-z]+[A-Z]\w*\b|\b[A-Z][a-z0-9]+[A-Z]\w*\b/g,
  )) {
    const w = m[0];
    if (/^[a-z]+\.[a-z]{2,4}$/.test(w) && /\.(py|ts|js|go|rs|rb|java|md|txt|toml|json|yaml|yml|cfg|ini)$/.test(w)) continue; // a file name
    if (/^(e\.g|i\.e|etc|vs)\b/i.test(w) || /^\w+\.(com|org|io|net)$/.test(w)) continue;
    add(w);
  }
  for (const m of text.matchAll(/(?:^|[\s"'(`])((?:\.\/)?[\w.-]+(?:\/[\w.-]+)*\.[a-z]{1,5})(?=$|[\s"'),:`])/gm)) {
    const p = m[1]!.replace(/^\.\//, '');
    if (
      /\.(py|pyi|ts|tsx|js|jsx|mjs|cjs|go|rs|rb|java|kt|c|h|cc|cpp|hpp|cs|php|swift|scala|lua|ex|exs|zig|sh|toml|json|yaml|yml|cfg|ini)$/.test(
        p,
      ) &&
      !/^\d/.test(p)
    )
      paths.add(p);
  }
  const phrases: string[][] = [];
  const seenPhrase = new Set<string>();
  for (const line of text.split(/\n|(?<=[.!?])\s+/)) {
    const words = (line.match(/[A-Za-z]+/g) ?? []).map((w) => w.toLowerCase());
    for (let i = 0; i + PHRASE <= words.length && phrases.length < MAX_PHRASES; i += 2) {
      const p = words.slice(i, i + PHRASE);
      if (p.every((w) => w.length < 3)) continue;
      const key = p.join(' ');
      if (seenPhrase.has(key)) continue;
      seenPhrase.add(key);
      phrases.push(p);
    }
  }
  const words = [...new Set((text.match(/[A-Za-z_][A-Za-z0-9_]{3,}/g) ?? []).map((w) => w.toLowerCase()))];
  return {
    identifiers: [...identifiers].slice(0, MAX_IDENTIFIERS),
    paths: [...paths].slice(0, MAX_PATHS),
    frames,
    frameSites,
    phrases,
    words,
  };
}
