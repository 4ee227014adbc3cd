import { isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ScipDocument, ScipIndex } from './scip-index.js';

/**
 * The repository path (`/`-separated, relative to `repoRoot`) of a document of an index, or
 * `undefined` when the document lies outside the repository. Document paths are relative to
 * the index's `projectRoot` (a `file:` URI); an index without one is taken to be rooted at
 * `repoRoot`.
 *
 * @example
 * ```ts
 * // an index of /repo/services/api (projectRoot file:///repo/services/api), document app/main.py
 * scipDocumentPath(index, doc, '/repo'); // 'services/api/app/main.py'
 * ```
 */
export function scipDocumentPath(
  index: Pick<ScipIndex, 'projectRoot'>,
  doc: Pick<ScipDocument, 'relativePath'>,
  repoRoot: string,
): string | undefined {
  const projectRoot = index.projectRoot.startsWith('file:') ? fileURLToPath(index.projectRoot) : index.projectRoot || repoRoot;
  const abs = isAbsolute(doc.relativePath) ? doc.relativePath : join(projectRoot, doc.relativePath);
  const rel = relative(repoRoot, abs);
  const path = sep === '/' ? rel : rel.split(sep).join('/');
  if (path === '' || path === '..' || path.startsWith('../') || isAbsolute(path)) return undefined;
  return path;
}
