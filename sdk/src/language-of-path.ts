/**
 * A path → language function from a table of extensions (with the dot, matched longest first
 * and case-insensitively) and exact file names, as a manifest's `extensions` claim them.
 *
 * @example
 * ```ts
 * const languageOf = languageOfFiles({ '.c': 'c', '.h': 'c', '.cpp': 'cpp', '.hpp': 'cpp' });
 * languageOf('src/ring.h'); // 'c'
 * languageOf('README.md'); // undefined
 * ```
 */
export function languageOfFiles(files: Readonly<Record<string, string>>): (path: string) => string | undefined {
  const table = new Map<string, string>();
  for (const [key, language] of Object.entries(files)) table.set(key.startsWith('.') ? key.toLowerCase() : key, language);
  return (path) => {
    const name = path.slice(path.lastIndexOf('/') + 1);
    const named = table.get(name);
    if (named !== undefined) return named;
    for (let dot = name.indexOf('.'); dot !== -1; dot = name.indexOf('.', dot + 1)) {
      const hit = table.get(name.slice(dot).toLowerCase());
      if (hit !== undefined) return hit;
    }
    return undefined;
  };
}

/**
 * The files table of a single-language manifest: every extension and file name it claims, to its
 * one language.
 * @throws Error when the manifest declares more than one language (give the table yourself).
 */
export function filesOfManifest(manifest: {
  readonly languages: readonly string[];
  readonly extensions: readonly string[];
}): Record<string, string> {
  if (manifest.languages.length !== 1)
    throw new Error(`filesOfManifest: the manifest declares ${manifest.languages.length} languages; say which extension is which`);
  return Object.fromEntries(manifest.extensions.map((e) => [e, manifest.languages[0]!]));
}
