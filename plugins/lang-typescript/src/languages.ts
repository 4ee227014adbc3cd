import ts from 'typescript';

/** Language ids as the host assigns them (host/src/indexer/walk/well-known-languages.ts). */
export type LanguageId = 'typescript' | 'javascript';

const JS = /\.(?:js|jsx|mjs|cjs)$/i;

/** The host's language id for a path: `.js .jsx .mjs .cjs` are JavaScript, the rest TypeScript. */
export function languageOf(path: string): LanguageId {
  return JS.test(path) ? 'javascript' : 'typescript';
}

/** How the parser must read a file, from its extension (`.tsx`/`.jsx` enable JSX). */
export function scriptKindOf(path: string): ts.ScriptKind {
  const lower = path.toLowerCase();
  if (lower.endsWith('.tsx')) return ts.ScriptKind.TSX;
  if (lower.endsWith('.jsx')) return ts.ScriptKind.JSX;
  if (JS.test(lower)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

/** True for TypeScript and JavaScript sources (declaration files included). */
export function isSourcePath(path: string): boolean {
  return /\.(?:ts|tsx|mts|cts|js|jsx|mjs|cjs)$/i.test(path);
}
