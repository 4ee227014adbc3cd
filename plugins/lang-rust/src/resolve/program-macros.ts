/**
 * The program's `macro_rules!` for the item-position invocations of macros a file does not define
 * (`FileIR.foreignMacros`: `define_section!(DebugAbbrev, DebugAbbrevOffset, "…");` in one file,
 * the macro in another). Phase A reads one file at a time and only records such invocations;
 * Phase B reads the file again with this lookup, so the structs, impls and functions the macro
 * writes are items of the program like any other.
 *
 * A name means a definition only when that is sure: the non-local `macro_rules!` of that name in
 * the invoking file's crate, all with the same rules; else the `#[macro_export]` ones of the
 * crates it depends on inside the repository, again one set of rules from one crate; a path says
 * which (`crate::make!`, `dep::make!`). Textual order (a macro is
 * visible only after its definition) is not checked: a crate that compiles uses what it can see.
 * A file no crate's module tree reaches (`#[cfg(windows)]` code) expands nothing.
 */
import { createHash } from 'node:crypto';
import type { Crate } from '../crates/crate-graph.js';
import type { MacroLookup } from '../syntax/extract.js';
import type { FileIR } from '../syntax/file-ir.js';
import { compileRules, type MacroRules } from '../syntax/macro-rules.js';
import type { Program } from './program.js';

interface Definition {
  /** `path#item`: which definition, for {@link ProgramMacros.appliedKey}. */
  id: string;
  crateKey: string | undefined;
  exported: boolean;
  /** The rules' text, to tell definitions that say the same from those that do not. */
  text: string;
  /** A digest of {@link text}: a changed macro is read again where it is invoked. */
  digest: string;
  rules: { matcher: string; body: string }[];
}

/** The program's macros by name, read once per Phase B request. */
export class ProgramMacros {
  private readonly byName = new Map<string, Definition[]>();
  private readonly compiled = new Map<string, MacroRules>();

  /** The crate of each file, read once: files read again later do not change their crate. */
  private readonly crates = new Map<string, Crate | undefined>();

  constructor(private readonly program: Program) {
    // Every file the crates reach, also in a session whose Phase A read none of them.
    program.ensureModules();
    for (const ir of program.irs()) {
      // Read before any file is read again (that builds the module trees anew).
      if (ir.foreignMacros) this.crateOf(ir.path);
      ir.items.forEach((it, i) => {
        if (it.kind !== 'macro' || !it.rules || it.local) return;
        const crateKey = this.crateOf(ir.path)?.key;
        const list = this.byName.get(it.name) ?? [];
        const text = JSON.stringify(it.rules);
        const digest = createHash('sha1').update(text).digest('base64url').slice(0, 12);
        list.push({ id: `${ir.path}#${i}`, crateKey, exported: it.exported === true, text, digest, rules: it.rules });
        this.byName.set(it.name, list);
      });
    }
  }

  /** The lookup a file's extraction uses (see {@link MacroLookup}). */
  lookup(path: string): MacroLookup {
    const crate = this.crateOf(path);
    return (name) => {
      const found = this.meaning(name, crate);
      if (!found) return undefined;
      let macro = this.compiled.get(found.def.id);
      if (!macro) this.compiled.set(found.def.id, (macro = compileRules(found.def.rules)));
      return { macro, ...(found.crateName ? { crateName: found.crateName } : {}) };
    };
  }

  /**
   * Which definitions the file's foreign invocations mean, as one string ('' when none): the file
   * is read again when this differs from `FileIR.foreignApplied`.
   */
  appliedKey(ir: FileIR): string {
    if (!ir.foreignMacros) return '';
    const crate = this.crateOf(ir.path);
    const ids = ir.foreignMacros.map((n) => {
      const m = this.meaning(n, crate);
      return m ? `${n}=${m.def.id}:${m.def.digest}` : '';
    });
    return ids.some((x) => x !== '') ? ids.join(';') : '';
  }

  private crateOf(path: string): Crate | undefined {
    if (!this.crates.has(path)) this.crates.set(path, this.program.reachedCrate(path));
    return this.crates.get(path);
  }

  /**
   * What an invocation's macro means in a crate: `make` (the crate's own, else a dependency's
   * exported one, all dependencies agreeing), `crate::make` (the crate's own), `dep::make` (that
   * dependency's exported one); undefined when not sure.
   */
  private meaning(written: string, crate: Crate | undefined): { def: Definition; crateName?: string } | undefined {
    const at = written.lastIndexOf('::');
    const name = at < 0 ? written : written.slice(at + 2);
    const qualifier = at < 0 ? undefined : written.slice(0, at).replace(/^::/, '');
    const defs = this.byName.get(name);
    if (!defs || !crate) return undefined;
    const own = defs.filter((d) => d.crateKey === crate.key);
    if (qualifier === undefined ? own.length > 0 : OWN_CRATE.has(qualifier))
      return own.length > 0 && oneMeaning(own) ? { def: own[0]! } : undefined;
    const deps = [...crate.deps].filter(([extern]) => qualifier === undefined || extern === qualifier);
    const theirs = deps.flatMap(([extern, dep]) =>
      defs.filter((d) => d.crateKey === dep.key && d.exported).map((def) => ({ def, extern })),
    );
    if (theirs.length === 0 || !oneMeaning(theirs.map((t) => t.def)) || new Set(theirs.map((t) => t.extern)).size > 1) return undefined;
    return { def: theirs[0]!.def, crateName: theirs[0]!.extern };
  }
}

/** Paths that name the invoking crate itself. */
const OWN_CRATE = new Set(['crate', 'self', 'super', '$crate']);

function oneMeaning(defs: readonly Definition[]): boolean {
  return defs.every((d) => d.text === defs[0]!.text);
}
