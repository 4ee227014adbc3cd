import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { filesOfManifest } from '../language-of-path.js';
import { buildPlugin, type EsbuildBuild, type PluginBuild } from './build-plugin.js';

/** What a tree-sitter language plugin ships next to its bundle. */
export interface GrammarPluginLayout {
  /** Language id → grammar file of tree-sitter-wasms@0.1.13 (`{ ruby: 'tree-sitter-ruby.wasm' }`). */
  readonly grammars: Readonly<Record<string, string>>;
  /**
   * Extension with the dot (or exact file name) → language id, for `dist/languages.json`.
   * Default: every extension of a single-language manifest (`travsr-plugin.json`), to its language.
   */
  readonly files?: Readonly<Record<string, string>>;
}

/**
 * The build of a language plugin made of a bundle, a tree-sitter runtime and its grammars:
 * {@link buildPlugin} on `src/main.ts` with `.scm` queries bundled as text, then
 * `dist/tree-sitter.wasm`, each grammar, and `dist/languages.json` (extension or file name →
 * language, language → grammar; read by tools such as the structural coverage benchmark).
 *
 * @example
 * ```js
 * import { build } from 'esbuild';
 * await buildGrammarPlugin(root, build, { grammars: { ruby: 'tree-sitter-ruby.wasm' } });
 * ```
 */
export async function buildGrammarPlugin(root: string, build: EsbuildBuild, layout: GrammarPluginLayout): Promise<PluginBuild> {
  const p = await buildPlugin(root, build, [{ entry: 'src/main.ts', outfile: 'main.js', loader: { '.scm': 'text' } }]);
  p.copy(p.treeSitterRuntime(), 'tree-sitter.wasm');
  for (const file of new Set(Object.values(layout.grammars))) p.copy(p.treeSitterGrammar(file), file);
  const table: { byExtension: Record<string, string>; byName: Record<string, string>; grammars: Record<string, string> } = {
    byExtension: {},
    byName: {},
    grammars: { ...layout.grammars },
  };
  const files =
    layout.files ??
    filesOfManifest(JSON.parse(readFileSync(join(root, 'travsr-plugin.json'), 'utf8')) as { languages: string[]; extensions: string[] });
  for (const [key, language] of Object.entries(files)) (key.startsWith('.') ? table.byExtension : table.byName)[key] = language;
  writeFileSync(join(p.dist, 'languages.json'), `${JSON.stringify(table, null, 2)}\n`);
  return p;
}
