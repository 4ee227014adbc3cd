/**
 * The intermediate form of one Rust file: its items (modules, functions, types, traits, impls
 * and their members), `use` declarations and `mod x;` declarations, kept small enough to hold
 * for every file of a repository. Phase B resolves names across files from these alone; function
 * bodies are read from the syntax tree of the one file being resolved (resolve/bodies.ts).
 * Ranges are protocol ranges (1-based lines, UTF-8 byte columns).
 */
import type { Diagnostic, NodeKind, Range } from '@travsr/sdk';

/** A type as written, reduced to what resolution uses. */
export type TypeExpr =
  /**
   * `a::b::C<T, U>`; `global` for a leading `::`; args of the last segment only; `item` from
   * `Iterator<Item = T>`, `target` from `Deref<Target = T>`.
   */
  | {
      k: 'path';
      segs: string[];
      args: TypeExpr[];
      global?: boolean;
      item?: TypeExpr;
      target?: TypeExpr;
      fnArgs?: TypeExpr[];
      fnRet?: TypeExpr;
    }
  /** `&T`, `&mut T`; `*const T`, `*mut T` with `raw`. */
  | { k: 'ref'; inner: TypeExpr; raw?: boolean }
  | { k: 'tuple'; elems: TypeExpr[] }
  /** `[T; n]` and `[T]`. */
  | { k: 'array'; elem: TypeExpr }
  /** `dyn A + B`, `impl A + B`: the traits. */
  | { k: 'bounds'; traits: TypeExpr[] }
  /** `<T as Trait>::Name`. */
  | { k: 'qualified'; self: TypeExpr; trait: TypeExpr; name: string }
  | { k: 'unknown' };

/** What an item is. `impl` items hold the members of an impl block. */
export type ItemKind =
  'mod' | 'fn' | 'struct' | 'enum' | 'union' | 'variant' | 'trait' | 'type' | 'const' | 'static' | 'macro' | 'impl' | 'field';

/** A generic parameter with the traits it is bound by (`T: Read + Clone`, `where T: Seek`). */
export interface GenericParam {
  name: string;
  bounds: TypeExpr[];
  /** `E = Error`: the type when the argument is left out. */
  default?: TypeExpr;
}

/** A parameter of a function (`self` parameters are not listed: see {@link Item.selfParam}). */
export interface ParamIR {
  /** The bound name when the pattern is a plain identifier. */
  name?: string;
  type: TypeExpr;
}

/** A declared field of a struct, union or variant. */
export interface FieldIR {
  name: string;
  type: TypeExpr;
  /** `#[pin]`: pin-project's projection gives it as `Pin<&mut T>`. */
  pinned?: true;
  /** Declared `pub` (anyone may read it) or `pub(crate)`, `pub(super)`, `pub(in …)` (restricted: the crate's); none: its module and theirs. */
  visibility?: 'pub' | 'restricted';
}

/** One item of a file. Members (of a trait, an impl, an enum, a struct) have their container as parent. */
export interface Item {
  kind: ItemKind;
  /** Name as declared; for an impl, the self type as written (`Vec<T>`). */
  name: string;
  /** Index of the enclosing item in {@link FileIR.items}; -1 for the file's module. */
  parent: number;
  /** Signature in the file's graph, unique within the file ('' when the item is not emitted). */
  sig: string;
  /** Path of the item below the file's module, `::`-separated (`inner::Parser::parse`). */
  path: string;
  range: Range;
  /** 1-based line of the name. */
  nameLine: number;
  skeleton?: string;
  pub: boolean;
  /** Attributes as written, without `#[` `]` (`cfg(unix)`, `test`, `derive(Debug)`). */
  attrs?: string[];
  /** Declared inside a function body: visible from that function only. */
  local?: boolean;
  // Functions:
  params?: ParamIR[];
  /** `self`, `&self`, `&mut self`, `self: Box<Self>`: the function is a method. */
  selfParam?: boolean;
  /** The receiver's type when written out and not `Self`, `&Self` or `&mut Self` (`self: Pin<&mut Self>`). */
  selfType?: TypeExpr;
  ret?: TypeExpr;
  generics?: GenericParam[] | undefined;
  /** True when the function has a body (a trait's provided method, every free function). */
  body?: boolean;
  // Structs, unions, enum variants: declared fields (tuple fields named '0', '1', …).
  fields?: FieldIR[];
  // Type aliases and associated types with a default: the aliased type.
  aliased?: TypeExpr;
  // Traits: supertraits; associated types: their bounds. Impls: the trait (absent for an inherent impl) and the self type.
  supertraits?: TypeExpr[];
  implTrait?: TypeExpr;
  implSelf?: TypeExpr;
  // Modules: `mod x;` (the file is found by the crate graph), with `#[path]` when given.
  external?: boolean;
  pathAttr?: string;
  /** `#[macro_export]` on a macro_rules!. */
  exported?: boolean;
  /** A macro_rules!'s rules as written (matcher and transcriber token trees). */
  rules?: { matcher: string; body: string }[];
}

/** One name a `use` declaration brings into its scope. */
export interface UseIR {
  /** The item whose scope it is in (a module or a function), -1 for the file's module. */
  scope: number;
  /** Segments as written: `crate`, `self`, `super`, names; `global` for a leading `::`. */
  segs: string[];
  global?: boolean;
  /** The name it binds (`as` rename, or the last segment; `self` in a group binds the group's last name). */
  alias?: string;
  /** `use a::b::*`. */
  glob?: boolean;
  /** `pub use` (any visibility): a re-export others see. */
  pub: boolean;
  /** `use x as _`: brings the traits in scope without a name. */
  underscore?: boolean;
  /** The `cfg(…)` attributes on the declaration (`#[cfg(feature = "std")] pub use std::io::Write;`). */
  cfg?: string[];
  range: Range;
}

/** A type named in an item's signature: a parameter, a return, a field, a bound, a supertrait, an implemented trait. */
export interface TypeRefIR {
  /** The item whose signature names it (for an impl's trait: the impl). */
  owner: number;
  kind: 'types' | 'inherits' | 'implements';
  type: TypeExpr & { k: 'path' };
}

/** The IR of one file. */
export interface FileIR {
  path: string;
  items: Item[];
  uses: UseIR[];
  typeRefs: TypeRefIR[];
  /** Inner doc of the file (`//!`), for the module's skeleton. */
  doc?: string;
  range: Range;
  /** Item attributes at the top of the file (`#![no_std]`, `#![cfg(…)]`). */
  innerAttrs?: string[];
  /** `include!(…)` at item level: source read at build time (`OUT_DIR`), not indexed. */
  includes?: { written: string; line: number }[];
  parseError?: Diagnostic;
  /**
   * Item-position invocations of a macro this file does not define, read as the items written
   * in them (`cfg_rt! { pub mod runtime; }`): the macro's name, the parent item, and the items
   * and uses they gave (index ranges). Phase B puts the attributes of a program's attribute
   * wrapper (`itemAttributeWrapper`) in front of theirs; `applied` is what it put there last.
   */
  macroItems?: { macro: string; parent: number; items: [number, number]; uses: [number, number]; applied?: string[] }[];
  /**
   * Macros of other files invoked at item positions with tokens that are not items
   * (`define_section!(DebugAbbrev, DebugAbbrevOffset, "…");`): Phase B reads the file again with
   * the program's macros and expands them. `foreignApplied` says which definitions it used.
   */
  foreignMacros?: string[];
  foreignApplied?: string;
}

/** Rust's primitive types. */
export const PRIMITIVE_TYPES = [
  'bool',
  'char',
  'str',
  'u8',
  'u16',
  'u32',
  'u64',
  'u128',
  'usize',
  'i8',
  'i16',
  'i32',
  'i64',
  'i128',
  'isize',
  'f32',
  'f64',
] as const;

/** {@link PRIMITIVE_TYPES} as a set. */
export const PRIMITIVE_TYPE_NAMES: ReadonlySet<string> = new Set(PRIMITIVE_TYPES);
/** Primitive types and `Self`: never a reference to an item. */
const PRIMITIVES = new Set<string>([...PRIMITIVE_TYPES, 'Self']);

/** The paths a type expression names (`Result<Vec<Token>, Error>`: Result, Vec, Token, Error), primitives and `skip` names left out. */
export function typePaths(t: TypeExpr, skip: ReadonlySet<string>, out: (TypeExpr & { k: 'path' })[] = []): (TypeExpr & { k: 'path' })[] {
  switch (t.k) {
    case 'path':
      // `Fn(A) -> R` sugar: the closure's types are not referred to by name here.
      if (t.fnArgs) break;
      if (!(t.segs.length === 1 && (PRIMITIVES.has(t.segs[0]!) || skip.has(t.segs[0]!)))) out.push(t);
      for (const a of t.args) typePaths(a, skip, out);
      if (t.item) typePaths(t.item, skip, out);
      break;
    case 'ref':
      typePaths(t.inner, skip, out);
      break;
    case 'tuple':
      for (const e of t.elems) typePaths(e, skip, out);
      break;
    case 'array':
      typePaths(t.elem, skip, out);
      break;
    case 'bounds':
      for (const b of t.traits) typePaths(b, skip, out);
      break;
    case 'qualified':
      typePaths(t.self, skip, out);
      typePaths(t.trait, skip, out);
      break;
    case 'unknown':
      break;
  }
  return out;
}

/** The node kind an item is emitted as. */
export function nodeKindOf(item: Item, parentKind: ItemKind | undefined): NodeKind {
  switch (item.kind) {
    case 'mod':
      return 'module';
    case 'fn':
      return parentKind === 'impl' || parentKind === 'trait' ? 'method' : 'function';
    case 'struct':
    case 'union':
      return 'struct';
    case 'enum':
      return 'enum';
    case 'variant':
      return 'constant';
    case 'trait':
      return 'trait';
    case 'type':
      return 'type';
    case 'const':
    case 'static':
      return 'constant';
    case 'macro':
      return 'macro';
    case 'field':
      return 'field';
    case 'impl':
      return 'namespace';
  }
}
