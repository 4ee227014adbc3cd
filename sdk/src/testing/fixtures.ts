import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** True when a file name matches a manifest extension entry (`.lua`) or exact name (`Dockerfile`). */
export function matchesExtensions(name: string, extensions: readonly string[]): boolean {
  return extensions.some((e) => (e.startsWith('.') ? name.endsWith(e) && name.length > e.length : name === e));
}

/**
 * Repository-relative (`/`-separated), sorted paths of the files below `dir` that match
 * the manifest's extensions. Hidden entries and `node_modules` are skipped.
 */
export function listFixtureFiles(dir: string, extensions: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (abs: string, rel: string): void => {
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(join(abs, entry.name), childRel);
      else if (entry.isFile() && matchesExtensions(entry.name, extensions)) out.push(childRel);
    }
  };
  walk(dir, '');
  return out.sort();
}

/** The language a host would assign: the only one, or the one named like the extension, or the first. */
export function languageForPath(path: string, languages: readonly string[]): string {
  if (languages.length === 1) return languages[0]!;
  const dot = path.lastIndexOf('.');
  const ext = dot >= 0 ? path.slice(dot + 1).toLowerCase() : '';
  return languages.find((l) => l === ext) ?? languages[0] ?? 'text';
}
