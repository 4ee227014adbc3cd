/**
 * Phase A's parses kept for Phase B of the same session, so that Phase B parses nothing twice:
 * the syntax trees of each file (and those of its macro expansions) within a budget of source.
 */
import type { RustSyntax } from './rust-syntax.js';

/** Source bytes whose parses Phase A keeps for Phase B (beyond that, Phase B parses again). */
const KEEP_PARSES_BYTES = 48 * 1024 * 1024;

export type Parse = ReturnType<RustSyntax['readWithBodies']>;

export function freeParse(p: Parse): void {
  p.tree.delete();
  for (const t of p.extraTrees) t.delete();
}

/** Parses kept from Phase A for Phase B, by path, within {@link KEEP_PARSES_BYTES} of source. */
export class KeptParses {
  private readonly byPath = new Map<string, { parse: Parse; bytes: number }>();
  private bytes = 0;

  /** Keeps a parse (true), or says it could not (over budget: the caller frees it). */
  keep(path: string, parse: Parse, bytes: number): boolean {
    if (this.bytes + bytes > KEEP_PARSES_BYTES) return false;
    this.drop(path);
    this.byPath.set(path, { parse, bytes });
    this.bytes += bytes;
    return true;
  }

  /** The kept parse of a file, handed over (the caller frees it). */
  take(path: string): Parse | undefined {
    const e = this.byPath.get(path);
    if (!e) return undefined;
    this.byPath.delete(path);
    this.bytes -= e.bytes;
    return e.parse;
  }

  private drop(path: string): void {
    const p = this.take(path);
    if (p) freeParse(p);
  }

  clear(): void {
    for (const e of this.byPath.values()) freeParse(e.parse);
    this.byPath.clear();
    this.bytes = 0;
  }
}
