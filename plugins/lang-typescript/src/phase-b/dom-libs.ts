import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import ts from 'typescript';

/**
 * The browser's declarations in TypeScript's default library of a target (`lib.d.ts` for ES5,
 * `lib.es6.d.ts`, `lib.<target>.full.d.ts`: what a program without `lib` gets), which the
 * target's language library (`lib.es5.d.ts`, `lib.esnext.d.ts`) leaves out. They are most of
 * what a program parses for a small project: lib.dom.d.ts alone is 1.9 MB, about 0.5 s of
 * parsing and 0.15 s of the checker's start in a fresh plugin process, for every session.
 */
export const DOM_LIB_FILES: ReadonlySet<string> = new Set([
  'lib.dom.d.ts',
  'lib.dom.iterable.d.ts',
  'lib.dom.asynciterable.d.ts',
  'lib.webworker.importscripts.d.ts',
  'lib.scripthost.d.ts',
]);

/**
 * `lib` for a program with the default library of its target (no `lib`, no `noLib`) but without
 * the browser: the libraries the default one references (`/// <reference lib="…" />`) less the
 * DOM's, e.g. `lib.esnext.full.d.ts` → `['lib.esnext.d.ts']`, ES5's `lib.d.ts` →
 * `['lib.es5.d.ts']`. Undefined when the program has a `lib` or `noLib`, or its default library
 * holds none of the DOM. Read from the library files shipped with the plugin, once per file.
 */
export function defaultLibWithoutDom(options: ts.CompilerOptions, libDir: string): string[] | undefined {
  if (options.lib !== undefined || options.noLib) return undefined;
  const file = ts.getDefaultLibFileName(options);
  const key = join(libDir, file);
  if (!withoutDomByFile.has(key)) {
    let text = '';
    try {
      text = readFileSync(key, 'utf8');
    } catch {
      // not shipped: the program is built as configured
    }
    const referenced = [...text.matchAll(/^\/\/\/\s*<reference\s+lib="([^"]+)"\s*\/>/gm)].map((m) => `lib.${m[1]!.toLowerCase()}.d.ts`);
    const kept = referenced.filter((f) => !DOM_LIB_FILES.has(f));
    withoutDomByFile.set(key, kept.length > 0 && kept.length < referenced.length ? kept : undefined);
  }
  const lib = withoutDomByFile.get(key);
  return lib && [...lib];
}
const withoutDomByFile = new Map<string, string[] | undefined>();

/**
 * The names the DOM libraries declare at their top level (globals such as `document`, `name`,
 * `close`, and types such as `HTMLElement`), read from the library files shipped with the plugin
 * with a pattern rather than parsed (their top-level declarations start their lines). Once per
 * directory.
 */
export function domGlobalNames(libDir: string): ReadonlySet<string> {
  let names = namesByDir.get(libDir);
  if (!names) {
    names = new Set<string>();
    for (const file of DOM_LIB_FILES) {
      let text: string;
      try {
        text = readFileSync(join(libDir, file), 'utf8');
      } catch {
        continue; // not shipped: nothing of it can be needed
      }
      for (const m of text.matchAll(
        /^(?:declare\s+)?(?:var|let|const|function|class|namespace|module|interface|type|enum)\s+([A-Za-z_$][\w$]*)/gm,
      ))
        names.add(m[1]!);
    }
    namesByDir.set(libDir, names);
  }
  return names;
}
const namesByDir = new Map<string, Set<string>>();

/**
 * Identifiers of the program's own files (not TypeScript's libraries) that are free references
 * — not a property name, a member's or a declaration's own name — and bear a DOM name.
 */
function* domNamedReferences(program: ts.Program, names: ReadonlySet<string>): Iterable<ts.Identifier> {
  for (const sf of program.getSourceFiles()) {
    if (program.isSourceFileDefaultLibrary(sf)) continue;
    const stack: ts.Node[] = [sf];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (ts.isIdentifier(node)) {
        if (names.has(node.text) && isFreeReference(node)) yield node;
        continue;
      }
      ts.forEachChild(node, (child) => {
        stack.push(child);
      });
      // JSDoc types are the types of JavaScript files (`@param {HTMLElement} el`).
      const jsDoc = (node as { jsDoc?: ts.Node[] }).jsDoc;
      if (jsDoc) stack.push(...jsDoc);
    }
  }
}

function isFreeReference(id: ts.Identifier): boolean {
  const p = id.parent;
  if (ts.isShorthandPropertyAssignment(p)) return true; // `{ name }` reads the variable `name`
  // What a node names rather than refers to: a declaration's or a member's own name, the
  // property of an access (`x.name`), an object literal's key, a JSX attribute.
  if ((p as { name?: ts.Node }).name === id) return false;
  if (ts.isQualifiedName(p) && p.right === id) return false;
  if (ts.isImportSpecifier(p) || ts.isExportSpecifier(p)) return false;
  if (ts.isLabeledStatement(p) || ts.isBreakOrContinueStatement(p)) return false;
  if (ts.isBindingElement(p) && p.propertyName === id) return false;
  return true;
}

/**
 * Whether a program built without the DOM libraries has a free reference with a DOM name that
 * resolves to nothing: the code may mean the browser's (`document`, `window`, `HTMLElement`).
 */
export function mayNeedDom(program: ts.Program, checker: ts.TypeChecker, libDir: string): boolean {
  // Unresolved: no symbol, or the checker's stand-in for an unknown name (no declaration).
  for (const id of domNamedReferences(program, domGlobalNames(libDir)))
    if (!checker.getSymbolAtLocation(id)?.declarations?.length) return true;
  return false;
}

/**
 * Whether a program built with the DOM libraries has a free reference that resolves to the
 * DOM's declarations alone: it needs them. A name the program also declares itself (a script's
 * global `close`, Node's `Event` from @types/node) does not count: it resolves without them.
 */
export function refersToDom(program: ts.Program, checker: ts.TypeChecker, libDir: string): boolean {
  for (const id of domNamedReferences(program, domGlobalNames(libDir))) {
    const declarations = checker.getSymbolAtLocation(id)?.declarations;
    if (declarations?.length && declarations.every((d) => DOM_LIB_FILES.has(basename(d.getSourceFile().fileName)))) return true;
  }
  return false;
}
