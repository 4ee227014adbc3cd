import ts from 'typescript';
import { collectDeclarations, type Declaration, type FileDeclarations } from '../../src/declarations.js';

/** `source` parsed as Phase A parses it (no parent pointers) under `fileName`. */
export function parse(source: string, fileName = 'a.ts'): ts.SourceFile {
  return ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false);
}

/** The declarations of `source`, and each as `kind signature` for a compact comparison. */
export function collect(source: string, fileName = 'a.ts'): FileDeclarations & { sf: ts.SourceFile; names: string[] } {
  const sf = parse(source, fileName);
  const d = collectDeclarations(sf);
  return { ...d, sf, names: d.list.map((x) => `${x.kind} ${x.signature}`) };
}

/** The header a declaration shows in its skeleton: from its start to `headerEnd`. */
export function header(sf: ts.SourceFile, d: Declaration): string {
  return sf.text.slice(d.rangeNode.getStart(sf), d.headerEnd).trim();
}
