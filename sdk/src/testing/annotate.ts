import type { GraphFileParams, Range, VName } from '@travsr/protocol';

/**
 * How comments are written in a language: a line prefix, and a suffix for block-only syntaxes.
 *
 * @example
 * ```ts
 * renderAnnotatedSource(text, graphFile, { start: '--' }); // force Lua-style comments
 * ```
 */
export interface CommentStyle {
  start: string;
  end?: string;
}

const HASH = [
  'py',
  'pyi',
  'rb',
  'sh',
  'bash',
  'zsh',
  'fish',
  'yaml',
  'yml',
  'toml',
  'pl',
  'pm',
  'r',
  'ex',
  'exs',
  'jl',
  'nix',
  'tf',
  'cmake',
  'ps1',
  'conf',
  'mk',
  'gd',
  'coffee',
  'cr',
  'nim',
  'tcl',
];
const DASH = ['lua', 'sql', 'hs', 'elm', 'ada', 'adb', 'ads', 'vhd', 'vhdl', 'purs', 'agda'];
const SEMI = ['clj', 'cljs', 'cljc', 'edn', 'el', 'lisp', 'lsp', 'scm', 'ss', 'rkt', 'ini', 'asm', 's', 'fnl'];
const PERCENT = ['erl', 'hrl', 'tex', 'sty', 'cls', 'pro'];
const XML = ['html', 'htm', 'xml', 'xhtml', 'svg', 'md', 'markdown', 'vue', 'svelte', 'xsd', 'xsl', 'plist'];
const BLOCK = ['css', 'scss', 'less'];
const NAMES: Record<string, CommentStyle> = {
  Dockerfile: { start: '#' },
  Makefile: { start: '#' },
  Gemfile: { start: '#' },
  Rakefile: { start: '#' },
  BUILD: { start: '#' },
  WORKSPACE: { start: '#' },
};

/**
 * The comment syntax used for annotation lines of a file, chosen by extension: `//` by
 * default, `#` for Python, shell, YAML…, `--` for Lua, SQL, Haskell…, `;` for Lisps and INI,
 * `%` for Erlang and TeX, `<!-- -->` for markup, block comments for CSS and OCaml.
 *
 * @example
 * ```ts
 * commentStyleFor('src/init.lua'); // { start: '--' }
 * commentStyleFor('app/main.py'); // { start: '#' }
 * ```
 */
export function commentStyleFor(path: string): CommentStyle {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const named = NAMES[base];
  if (named) return named;
  const dot = base.lastIndexOf('.');
  const ext = dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
  if (HASH.includes(ext)) return { start: '#' };
  if (DASH.includes(ext)) return { start: '--' };
  if (SEMI.includes(ext)) return { start: ';' };
  if (PERCENT.includes(ext)) return { start: '%' };
  if (XML.includes(ext)) return { start: '<!--', end: ' -->' };
  if (ext === 'ml' || ext === 'mli') return { start: '(*', end: ' *)' };
  if (BLOCK.includes(ext)) return { start: '/*', end: ' */' };
  return { start: '//' };
}

interface Occurrence {
  range: Range;
  order: number;
  text: string;
}

function lastSegment(signature: string): string {
  const plain = signature.replace(/@\d+$/, '');
  const parts = plain.split(/::|[.:#/]/);
  return parts[parts.length - 1] ?? plain;
}

function label(v: VName, file: GraphFileParams): string {
  if (v.path === file.path && v.language === file.language) return v.signature === '' ? '<file>' : v.signature;
  return `${v.corpus ? `${v.corpus}/` : ''}${v.path}#${v.signature}${v.language !== file.language ? ` (${v.language})` : ''}`;
}

function rangeText(r: Range): string {
  return `${r.startLine}:${r.startCol}-${r.endLine}:${r.endCol}`;
}

/** UTF-16 index in `line` of a UTF-8 byte column (clamped to the line). */
function charIndex(line: string, byteCol: number): number {
  const bytes = Buffer.from(line, 'utf8');
  if (byteCol >= bytes.length) return line.length;
  return bytes.subarray(0, byteCol).toString('utf8').length;
}

/**
 * Writes the result of analyzing one file back onto its source, in the style of
 * `scip snapshot`: under each line, one comment line per definition, reference or
 * diagnostic that starts on it, with carets under its range; then a footer listing status,
 * range-less nodes and diagnostics, skeletons and edges. The output is stable (sorted) so it
 * can be stored as a golden file.
 *
 * @example
 * ```ts
 * renderAnnotatedSource('local function f() end\n', graphFile);
 * // local function f() end
 * // --             ^^^^^^^^^^^^^^^^^^^^^^^ definition function f
 * // …
 * ```
 */
export function renderAnnotatedSource(text: string, file: GraphFileParams, style: CommentStyle = commentStyleFor(file.path)): string {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const byLine = new Map<number, Occurrence[]>();
  const footer: string[] = [];
  const add = (range: Range | undefined, order: number, what: string, orphan: string): void => {
    if (!range || range.startLine < 1 || range.startLine > lines.length) {
      footer.push(orphan);
      return;
    }
    const list = byLine.get(range.startLine) ?? [];
    list.push({ range, order, text: what });
    byLine.set(range.startLine, list);
  };
  for (const n of file.nodes) {
    let what = `definition ${n.kind} ${label(n.vname, file)}`;
    if (n.vname.signature !== '' && lastSegment(n.vname.signature) !== n.name) what += ` (name ${n.name})`;
    add(n.range, 0, what, `node ${n.kind} ${label(n.vname, file)}${n.vname.signature === '' ? ` (${n.name})` : ''}`);
  }
  for (const r of file.refs ?? []) {
    const from = label(r.src, file);
    const what = `reference ${r.kind} ${r.name}${from === '<file>' ? '' : ` (from ${from})`}`;
    add(r.range, 1, what, `${what} (no range)`);
  }
  for (const d of file.diagnostics) {
    const what = `diagnostic ${d.severity}${d.code ? ` ${d.code}` : ''}: ${d.message.replace(/\s*\n\s*/g, ' ')}`;
    add(d.range, 2, what, what);
  }

  const end = style.end ?? '';
  const out: string[] = [];
  lines.forEach((line, i) => {
    out.push(line);
    const occ = byLine.get(i + 1);
    if (!occ) return;
    occ.sort((a, b) => a.range.startCol - b.range.startCol || a.order - b.order || a.text.localeCompare(b.text));
    for (const o of occ) out.push(annotationLine(line.replace(/\r$/, ''), o, style.start, end));
  });

  const c = (s: string) => `${style.start} ${s}${end}`;
  out.push(c(`----- travsr snapshot: ${file.path} (${file.language}, phase ${file.phase}, status ${file.status}) -----`));
  for (const f of footer.sort()) out.push(c(f));
  const skeletons = file.nodes
    .filter((n) => n.skeleton !== undefined)
    .map((n) => `skeleton ${label(n.vname, file)}: ${JSON.stringify(n.skeleton)}`)
    .sort();
  for (const s of skeletons) out.push(c(s));
  const edges = file.edges
    .map((e) => `edge ${e.kind} ${label(e.src, file)} -> ${label(e.dst, file)} (confidence ${e.confidence}, ${e.provenance})`)
    .sort();
  for (const e of edges) out.push(c(e));
  return `${out.join('\n')}\n`;
}

function annotationLine(line: string, o: Occurrence, start: string, end: string): string {
  const r = o.range;
  const from = charIndex(line, r.startCol);
  const to = r.endLine === r.startLine ? charIndex(line, r.endCol) : line.length;
  const carets = '^'.repeat(Math.max(1, to - from));
  const suffix = r.endLine === r.startLine ? '' : ` (to ${r.endLine}:${r.endCol})`;
  const padding = line.slice(0, from).replace(/[^\t]/g, ' ');
  if (padding.length >= start.length && !padding.slice(0, start.length).includes('\t')) {
    return `${start}${padding.slice(start.length)}${carets} ${o.text}${suffix}${end}`;
  }
  // The range starts left of where the comment marker ends: carets cannot line up.
  return `${start} ${carets} ${o.text} [${rangeText(r)}]${end}`;
}
