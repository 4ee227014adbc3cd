/**
 * Which language a well-known extension or file name means. Used only to split the
 * extensions of a plugin that declares several languages (see `extensionLanguages`); a
 * plugin with one language maps all its extensions to it.
 *
 * Language ids stay simple, one per language rather than per dialect: `.tsx` is
 * `typescript` and `.jsx` is `javascript` (the analyzer tells them apart by extension);
 * `.h` is `c`, since C headers are the more common reading — a C++ plugin that wants it
 * says so in its explicit table.
 */
const table: Record<string, readonly string[]> = {
  typescript: ['.ts', '.tsx', '.mts', '.cts', '.d.ts', '.d.mts', '.d.cts'],
  javascript: ['.js', '.jsx', '.mjs', '.cjs'],
  python: ['.py', '.pyi', '.pyw'],
  go: ['.go'],
  rust: ['.rs'],
  java: ['.java'],
  c: ['.c', '.h'],
  cpp: ['.cc', '.cpp', '.cxx', '.c++', '.hh', '.hpp', '.hxx', '.h++', '.ipp', '.tpp'],
  csharp: ['.cs', '.csx'],
  ruby: ['.rb', '.rake', '.gemspec', 'Gemfile', 'Rakefile'],
  php: ['.php', '.phtml'],
  kotlin: ['.kt', '.kts'],
  swift: ['.swift'],
  scala: ['.scala', '.sc'],
  dart: ['.dart'],
  lua: ['.lua'],
  elixir: ['.ex', '.exs'],
  erlang: ['.erl', '.hrl'],
  haskell: ['.hs', '.lhs'],
  ocaml: ['.ml', '.mli'],
  clojure: ['.clj', '.cljs', '.cljc', '.edn'],
  zig: ['.zig'],
  bash: ['.sh', '.bash'],
  json: ['.json', '.jsonc', '.json5'],
  yaml: ['.yaml', '.yml'],
  toml: ['.toml'],
  xml: ['.xml', '.xsd', '.xsl', '.xslt'],
  html: ['.html', '.htm'],
  css: ['.css'],
  scss: ['.scss'],
  markdown: ['.md', '.markdown'],
  sql: ['.sql'],
  proto: ['.proto'],
  graphql: ['.graphql', '.gql'],
  hcl: ['.tf', '.hcl'],
  vue: ['.vue'],
  svelte: ['.svelte'],
  dockerfile: ['Dockerfile'],
  make: ['Makefile', 'GNUmakefile', '.mk'],
  cmake: ['CMakeLists.txt', '.cmake'],
};

const byKey = new Map<string, string>();
for (const [language, keys] of Object.entries(table)) {
  for (const key of keys) byKey.set(key.startsWith('.') ? key.toLowerCase() : key, language);
}

/**
 * The language a well-known extension (`.ts`, any case) or exact file name (`Dockerfile`)
 * means, or `undefined` when the table does not know it.
 */
export function wellKnownLanguage(extensionOrName: string): string | undefined {
  return byKey.get(extensionOrName.startsWith('.') ? extensionOrName.toLowerCase() : extensionOrName);
}
