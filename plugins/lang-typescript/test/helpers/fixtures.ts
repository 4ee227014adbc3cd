import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AnalyzeFile } from '@travsr/protocol';

const SOURCE = /\.(?:ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

/** The TypeScript/JavaScript files below `root`, with the language the host would assign. */
export function listFixtures(root: string, dir = ''): AnalyzeFile[] {
  const out: AnalyzeFile[] = [];
  for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory() && e.name !== 'node_modules' && !e.name.startsWith('.')) out.push(...listFixtures(root, rel));
    else if (e.isFile() && SOURCE.test(e.name))
      out.push({ path: rel, language: /\.[cm]?jsx?$/.test(e.name) ? 'javascript' : 'typescript' });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : 1));
}
