/**
 * The intermediate form of one Python module: what Phase A read from its syntax tree, kept
 * small enough to hold for every module of a repository, and everything Phase B needs to
 * resolve names without the tree. Positions are UTF-16 offsets into the text (flow order) and
 * protocol ranges (1-based lines, UTF-8 byte columns) for what is emitted.
 */
import type { Diagnostic, NodeKind, Range } from '@travsr/sdk';

/** An expression, reduced to what name and type resolution can use. */
export type Expr =
  | { k: 'name'; id: string; pos: number }
  | { k: 'attr'; obj: Expr; name: string }
  | { k: 'call'; fn: Expr; args: Expr[]; site?: number }
  | { k: 'sub'; obj: Expr; idx: Expr[] }
  | { k: 'str'; v: string; pos: number }
  | { k: 'union'; items: Expr[] }
  | { k: 'lit'; t: LiteralType; items?: Expr[]; values?: Expr[] }
  | { k: 'func'; def: number }
  | { k: 'await'; e: Expr }
  | { k: 'unknown' };

/** The builtin type of a literal or display. */
export type LiteralType = 'str' | 'bytes' | 'int' | 'float' | 'complex' | 'bool' | 'none' | 'list' | 'tuple' | 'dict' | 'set';

/** Where a target sits inside an unpacked value: `a, (b, c) = x` gives b the path [1, 0]. */
export type UnpackPath = readonly number[];

/** One way a name gets its value in a scope. `pos` orders bindings and uses in the text. */
export type Binding =
  | { k: 'def'; def: number; pos: number }
  | { k: 'assign'; value: Expr; ann?: Expr; path?: UnpackPath; pos: number }
  | { k: 'import'; module: string; level: number; name?: string; pos: number }
  | { k: 'param'; def: number; index: number; ann?: Expr; dflt?: Expr; star?: '*' | '**'; pos: number }
  | { k: 'for'; iter: Expr; path?: UnpackPath; pos: number }
  | { k: 'with'; ctx: Expr; path?: UnpackPath; pos: number }
  | { k: 'except'; types: Expr; pos: number }
  /** `isinstance(x, types)` holds from `pos` to `end` (an if block, the rest of a block after an assert). */
  | { k: 'narrow'; types: Expr; pos: number; end: number }
  | { k: 'unknown'; pos: number };

/** `from m import *` in a scope. */
export interface StarImport {
  module: string;
  level: number;
  pos: number;
}

export type ScopeKind = 'module' | 'class' | 'function' | 'lambda' | 'comprehension';

/** A scope: the module, a class body, a function, a lambda or a comprehension. */
export interface ScopeIR {
  kind: ScopeKind;
  /** The definition that opens it (-1: the module, a lambda or a comprehension). */
  def: number;
  /** The enclosing scope (-1 for the module). */
  parent: number;
  names: Map<string, Binding[]>;
  stars?: StarImport[];
  /** Names declared `global` (resolved in the module) or `nonlocal`. */
  globals?: Set<string>;
}

/** Kinds of definitions this analyzer emits. */
export type DefKind = Extract<NodeKind, 'class' | 'function' | 'method' | 'property' | 'field' | 'variable' | 'constant'>;

/** A parameter of a function. */
export interface ParamIR {
  name: string;
  ann?: Expr;
  dflt?: Expr;
  star?: '*' | '**';
}

/** An attribute a method assigns on its first parameter (`self.x = …`). */
export interface InstanceAttr {
  value?: Expr;
  ann?: Expr;
  path?: UnpackPath;
  /** The method's scope, where `value` is evaluated. */
  scope: number;
  pos: number;
}

/** A definition: class, function, method, property, class attribute, module variable. */
export interface DefIR {
  kind: DefKind;
  name: string;
  /** Dotted name inside the module (`Session.request`). */
  qname: string;
  /** VName signature, unique in the file (`C.x@setter` for a property setter). */
  sig: string;
  range: Range;
  /** Position of the name identifier: 1-based line, 0-based UTF-16 column. */
  nameLine: number;
  nameCol: number;
  /** Enclosing definition (-1: the module). */
  parent: number;
  /** The scope this definition opens (functions, classes), else -1. */
  scope: number;
  /** The scope the definition is bound in. */
  outer: number;
  skeleton?: string;
  decorators: Expr[];
  /** Decorator names as written (`property`, `x.setter`, `functools.wraps`). */
  decoratorNames: string[];
  bases?: Expr[];
  params?: ParamIR[];
  returns?: Expr;
  /** Expressions of its `return` statements (evaluated in its own scope). */
  returnExprs?: Expr[];
  isGenerator?: boolean;
  isAsync?: boolean;
  /** Classes: attributes assigned on `self` in their methods. */
  instanceAttrs?: Map<string, InstanceAttr[]>;
  /** Classes: the statements `name: T` (with or without a value) of the body, in order (dataclass fields). */
  fields?: string[];
}

/** A call site: the callee expression and where its name is. */
export interface CallIR {
  callee: Expr;
  /** Scope the callee is evaluated in. */
  scope: number;
  /** The definition the call is attributed to (-1: the module). */
  caller: number;
  /** Range of the callee's name (`f` in `a.f(x)`), protocol units. */
  range: Range;
  /** The same position as 1-based line and UTF-16 columns, for external indexes. */
  line: number;
  col: number;
  endCol: number;
  /** The name as written (`self.parse`), for Phase A refs. */
  written: string;
  pos: number;
  decorator?: boolean;
}

/** An import statement's module reference, for `imports` edges and Phase A refs. */
export interface ImportIR {
  module: string;
  level: number;
  /** Imported names (`from m import a, b`); empty for `import m` and `*`. */
  names: string[];
  star?: boolean;
  range: Range;
  /** Name as Phase A writes it (`a.b`, `.views`). */
  written: string[];
}

/** A type reference in an annotation, base list or similar, owned by a definition. */
export interface TypeRefIR {
  owner: number;
  expr: Expr;
  scope: number;
  range: Range;
  written: string;
  kind: 'types' | 'inherits';
}

/** One module, ready for both phases. */
export interface ModuleIR {
  path: string;
  defs: DefIR[];
  scopes: ScopeIR[];
  calls: CallIR[];
  imports: ImportIR[];
  typeRefs: TypeRefIR[];
  /** `__all__` when it is a literal list/tuple of strings (possibly extended). */
  all?: string[];
  /** The `PARSE_ERRORS` warning when the syntax is broken (what parsed is still there). */
  parseError?: Diagnostic;
  lineCount: number;
  /**
   * Range of the module node: its docstring, else the start of the file. (Not the whole file:
   * the file node stands for that, and a module node spanning it would repeat every line of
   * the file wherever definitions are shown.)
   */
  range: Range;
  /** Module docstring, for the module node's skeleton. */
  doc?: string;
}
