/**
 * The languages this plugin serves: the host's language id, the tree-sitter grammar that
 * parses it (a `.wasm` of tree-sitter-wasms@0.1.13, copied into dist/ by the build) and the
 * extensions it claims. Ids and extensions are those of the host's well-known table
 * (host/src/indexer/walk/well-known-languages.ts), so that the host maps every extension of
 * this multi-language plugin to the right language; test/manifest.test.ts keeps the three
 * (this table, travsr-plugin.json, the host's table) in step.
 *
 * Adding a language: a row here, `queries/<id>.scm`, the manifest entries, inputs under
 * `snapshots/input/<id>/` and a case in test/languages.test.ts.
 */
export interface LanguageSpec {
  /** Language id, as the host assigns it and as VNames carry it. */
  readonly id: string;
  /** File name of the grammar in dist/ (and in tree-sitter-wasms/out/). */
  readonly grammar: string;
  /** Extensions (with the dot) and exact file names this language claims. */
  readonly extensions: readonly string[];
}

export const LANGUAGES: readonly LanguageSpec[] = [
  { id: 'bash', grammar: 'tree-sitter-bash.wasm', extensions: ['.sh', '.bash'] },
  { id: 'elixir', grammar: 'tree-sitter-elixir.wasm', extensions: ['.ex', '.exs'] },
  // Only implementations: `.mli` signatures need the ocaml_interface grammar, which the package lacks.
  { id: 'ocaml', grammar: 'tree-sitter-ocaml.wasm', extensions: ['.ml'] },
  { id: 'zig', grammar: 'tree-sitter-zig.wasm', extensions: ['.zig'] },
];

const byId = new Map(LANGUAGES.map((l) => [l.id, l]));
const byKey = new Map<string, LanguageSpec>();
for (const l of LANGUAGES) for (const e of l.extensions) byKey.set(e.startsWith('.') ? e.toLowerCase() : e, l);

/** The language with this id, if this plugin serves it. */
export function languageById(id: string): LanguageSpec | undefined {
  return byId.get(id);
}

/**
 * The language a path's extension (longest first, case-insensitive) or exact file name
 * claims, the way the host's language map decides.
 */
export function languageOfPath(path: string): LanguageSpec | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const named = byKey.get(name);
  if (named) return named;
  for (let dot = name.indexOf('.'); dot !== -1; dot = name.indexOf('.', dot + 1)) {
    const hit = byKey.get(name.slice(dot).toLowerCase());
    if (hit) return hit;
  }
  return undefined;
}
