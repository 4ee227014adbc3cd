/**
 * One walk over a tree-sitter-python tree that produces the module's {@link ModuleIR}:
 * definitions with their scopes, bindings, call sites, imports and type references.
 */
import type { Range } from '@travsr/sdk';
import { parseErrorDiagnostic, type LineIndex } from '@travsr/sdk/tree-sitter';
import type { Node as TsNode, Tree } from 'web-tree-sitter';
import type {
  Binding,
  CallIR,
  DefIR,
  DefKind,
  Expr,
  ImportIR,
  InstanceAttr,
  ModuleIR,
  ParamIR,
  ScopeKind,
  UnpackPath,
} from './module-ir.js';
import { skeletonOf } from './skeleton.js';
import { docstringOf, stringValue } from './strings.js';

const UNKNOWN: Expr = { k: 'unknown' };
/** A skeleton or docstring longer than this is cut. */
const MAX_DOC = 2000;

/** What a statement is walked in: its scope and the definition its calls belong to. */
interface Where {
  scope: number;
  owner: number;
  /** The function whose `return`/`yield` statements these are (-1 outside functions). */
  fn: number;
  /** The class whose method this is and the name of its first parameter (for `self.x = …`). */
  selfOf?: { cls: number; name: string };
}

/**
 * Reads a parsed module.
 *
 * @example
 * ```ts
 * const ir = extractModule(tree, text, lines, 'pkg/mod.py');
 * ir.defs.map((d) => d.qname); // ['Session', 'Session.request', …]
 * ```
 */
export function extractModule(tree: Tree, text: string, lines: LineIndex, path: string): ModuleIR {
  return new Extractor(text, lines, path).run(tree);
}

class Extractor {
  private readonly ir: ModuleIR;
  /** Signatures given so far: a repeat gets `@2`, `@3`, … (as the SDK's graph builder would). */
  private readonly sigCounts = new Map<string, number>();
  /** Lambdas: how many call sites were recorded before each began (its body's come after). */
  private readonly lambdaCalls = new Map<number, number>();

  constructor(
    private readonly text: string,
    private readonly lines: LineIndex,
    path: string,
  ) {
    this.ir = {
      path,
      defs: [],
      scopes: [{ kind: 'module', def: -1, parent: -1, names: new Map() }],
      calls: [],
      imports: [],
      typeRefs: [],
      lineCount: lines.lineCount,
      range: { startLine: 1, startCol: 0, endLine: 1, endCol: 0 },
    };
  }

  run(tree: Tree): ModuleIR {
    const root = tree.rootNode;
    const diagnostic = root.hasError ? parseErrorDiagnostic(tree, this.lines) : undefined;
    if (diagnostic) this.ir.parseError = diagnostic;
    const doc = docstringOf(root);
    if (doc) {
      this.ir.doc = doc.slice(0, MAX_DOC);
      const statement = root.namedChildren.find((c) => c?.type === 'expression_statement');
      if (statement) this.ir.range = this.range(statement);
    }
    this.block(root, { scope: 0, owner: -1, fn: -1 });
    return this.ir;
  }

  private range(n: TsNode): Range {
    return this.lines.range(n.startPosition, n.endPosition);
  }

  // ---- scopes and bindings ----

  private newScope(kind: ScopeKind, def: number, parent: number): number {
    this.ir.scopes.push({ kind, def, parent, names: new Map() });
    return this.ir.scopes.length - 1;
  }

  private bind(scope: number, name: string, b: Binding): void {
    const s = this.ir.scopes[scope]!;
    const target = s.globals?.has(name) ? this.ir.scopes[0]! : s;
    let list = target.names.get(name);
    if (!list) target.names.set(name, (list = []));
    list.push(b);
  }

  private define(
    kind: DefKind,
    nameNode: TsNode,
    node: TsNode,
    where: Where,
    extra: Partial<DefIR> & { opens?: ScopeKind; sigSuffix?: string } = {},
  ): number {
    const name = nameNode.text;
    const parent = where.owner;
    const parentDef = parent >= 0 ? this.ir.defs[parent] : undefined;
    const qname = parentDef ? `${parentDef.qname}.${name}` : name;
    const id = this.ir.defs.length;
    const { opens, sigSuffix, ...rest } = extra;
    const wanted = qname + (sigSuffix ?? '');
    const n = (this.sigCounts.get(wanted) ?? 0) + 1;
    this.sigCounts.set(wanted, n);
    const def: DefIR = {
      kind,
      name,
      qname,
      sig: n === 1 ? wanted : `${wanted}@${n}`,
      range: this.range(node),
      nameLine: nameNode.startPosition.row + 1,
      nameCol: nameNode.startPosition.column,
      parent,
      scope: -1,
      outer: where.scope,
      decorators: [],
      decoratorNames: [],
      ...rest,
    };
    this.ir.defs.push(def);
    if (opens) def.scope = this.newScope(opens, id, where.scope);
    return id;
  }

  // ---- statements ----

  private block(node: TsNode, where: Where): void {
    for (const child of node.namedChildren) if (child) this.statement(child, where);
  }

  private statement(n: TsNode, where: Where): void {
    switch (n.type) {
      case 'expression_statement':
        for (const c of n.namedChildren) if (c) this.expressionStatement(c, where);
        return;
      case 'function_definition':
        this.functionDef(n, n, [], where);
        return;
      case 'class_definition':
        this.classDef(n, n, [], where);
        return;
      case 'decorated_definition':
        this.decorated(n, where);
        return;
      case 'import_statement':
        this.importStatement(n, where);
        return;
      case 'import_from_statement':
        this.importFrom(n, where);
        return;
      case 'future_import_statement':
        return;
      case 'return_statement': {
        const value = n.namedChildren[0];
        const e = value ? this.expr(value, where) : { k: 'lit' as const, t: 'none' as const };
        if (where.fn >= 0) (this.ir.defs[where.fn]!.returnExprs ??= []).push(e);
        return;
      }
      case 'global_statement':
      case 'nonlocal_statement': {
        const s = this.ir.scopes[where.scope]!;
        if (n.type === 'global_statement' && where.scope !== 0) {
          s.globals ??= new Set();
          for (const c of n.namedChildren) if (c?.type === 'identifier') s.globals.add(c.text);
        }
        return;
      }
      case 'for_statement': {
        const iter = this.exprField(n, 'right', where);
        const left = n.childForFieldName('left');
        if (left) this.bindTarget(left, where, (path, pos) => ({ k: 'for', iter, ...(path.length ? { path } : {}), pos }));
        this.bodies(n, where);
        return;
      }
      case 'with_statement':
        this.withStatement(n, where);
        return;
      case 'try_statement':
        for (const c of n.namedChildren) {
          if (!c) continue;
          if (c.type === 'block') this.block(c, where);
          else if (c.type === 'except_clause' || c.type === 'except_group_clause') this.exceptClause(c, where);
          else this.statement(c, where);
        }
        return;
      case 'if_statement':
      case 'while_statement':
      case 'elif_clause':
      case 'else_clause':
      case 'finally_clause': {
        const condition = n.childForFieldName('condition');
        for (const c of n.namedChildren) {
          if (!c) continue;
          if (c.type === 'block') {
            // `if isinstance(x, C):` — inside the block, x is a C.
            if (condition && sameNode(c, n.childForFieldName('consequence'))) this.narrow(condition, where, c.startIndex, c.endIndex);
            this.block(c, where);
          } else if (c.type === 'elif_clause' || c.type === 'else_clause') this.statement(c, where);
          else this.expr(c, where);
        }
        return;
      }
      case 'assert_statement': {
        for (const c of n.namedChildren) if (c) this.expr(c, where);
        // `assert isinstance(x, C)`: from here to the end of the block, x is a C.
        const condition = n.namedChildren[0];
        const block = n.parent;
        if (condition && block) this.narrow(condition, where, n.endIndex, block.endIndex);
        return;
      }
      case 'block':
        this.block(n, where);
        return;
      case 'match_statement':
        for (const c of n.namedChildren) {
          if (!c) continue;
          if (c.type === 'block' || c.type === 'case_clause') this.bodies(c, where);
          else this.expr(c, where);
        }
        return;
      case 'case_clause':
        this.bodies(n, where);
        return;
      case 'delete_statement':
      case 'pass_statement':
      case 'break_statement':
      case 'continue_statement':
      case 'comment':
        return;
      default:
        // assert, raise, print (Python 2), exec, type aliases, errors: any calls inside count.
        for (const c of n.namedChildren) if (c) this.expr(c, where);
    }
  }

  /** The blocks (and expressions) of a compound statement. */
  private bodies(n: TsNode, where: Where): void {
    for (const c of n.namedChildren) {
      if (!c) continue;
      if (c.type === 'block') this.block(c, where);
      else if (c.type === 'else_clause' || c.type === 'elif_clause' || c.type === 'case_clause') this.statement(c, where);
      else if (c.type === 'case_pattern' || c.type === 'identifier') continue;
      else if (n.type === 'for_statement' && (sameNode(c, n.childForFieldName('left')) || sameNode(c, n.childForFieldName('right'))))
        continue;
      else this.expr(c, where);
    }
  }

  /** Records `isinstance(name, types)` (possibly under `and`) as a narrowing of `name` over [start, end). */
  private narrow(condition: TsNode, where: Where, start: number, end: number): void {
    if (condition.type === 'boolean_operator' && condition.childForFieldName('operator')?.type === 'and') {
      const left = condition.childForFieldName('left');
      const right = condition.childForFieldName('right');
      if (left) this.narrow(left, where, start, end);
      if (right) this.narrow(right, where, start, end);
      return;
    }
    if (condition.type === 'parenthesized_expression' && condition.namedChildren[0]) {
      this.narrow(condition.namedChildren[0], where, start, end);
      return;
    }
    if (condition.type !== 'call' || condition.childForFieldName('function')?.text !== 'isinstance') return;
    const args = condition.childForFieldName('arguments')?.namedChildren.filter((a): a is TsNode => a !== null) ?? [];
    const [subject, types] = args;
    if (subject?.type !== 'identifier' || !types) return;
    // The calls in the condition were recorded with it; this only reads the class names.
    this.bind(where.scope, subject.text, { k: 'narrow', types: classNames(types), pos: start, end });
  }

  private exceptClause(n: TsNode, where: Where): void {
    for (const c of n.namedChildren) {
      if (!c) continue;
      if (c.type === 'block') this.block(c, where);
      else if (c.type === 'as_pattern') {
        const types = this.expr(c.namedChildren[0]!, where);
        const alias = c.childForFieldName('alias');
        const id = alias?.namedChildren[0];
        if (id?.type === 'identifier') this.bind(where.scope, id.text, { k: 'except', types, pos: id.startIndex });
      } else this.expr(c, where);
    }
  }

  private withStatement(n: TsNode, where: Where): void {
    for (const c of n.namedChildren) {
      if (!c) continue;
      if (c.type === 'block') {
        this.block(c, where);
        continue;
      }
      if (c.type !== 'with_clause') {
        this.expr(c, where);
        continue;
      }
      for (const item of c.namedChildren) {
        const value = item?.type === 'with_item' ? item.childForFieldName('value') : item;
        if (!value) continue;
        if (value.type === 'as_pattern') {
          const ctx = this.expr(value.namedChildren[0]!, where);
          const target = value.childForFieldName('alias')?.namedChildren[0];
          if (target) this.bindTarget(target, where, (path, pos) => ({ k: 'with', ctx, ...(path.length ? { path } : {}), pos }));
        } else this.expr(value, where);
      }
    }
  }

  private expressionStatement(n: TsNode, where: Where): void {
    if (n.type === 'assignment') this.assignment(n, where);
    else if (n.type === 'augmented_assignment') {
      const right = this.exprField(n, 'right', where);
      const left = n.childForFieldName('left');
      if (left?.type === 'identifier' && left.text === '__all__' && where.scope === 0) this.extendAll(right);
      else if (left) this.expr(left, where);
    } else {
      const e = this.expr(n, where);
      // __all__.extend([...]) / __all__.append('x') / __all__ += …
      if (where.scope === 0 && e.k === 'call' && e.fn.k === 'attr' && e.fn.obj.k === 'name' && e.fn.obj.id === '__all__') {
        const arg = e.args[0];
        if (e.fn.name === 'extend' && arg) this.extendAll(arg);
        if (e.fn.name === 'append' && arg?.k === 'str') (this.ir.all ??= []).push(arg.v);
      }
    }
  }

  private extendAll(e: Expr): void {
    if (e.k === 'lit' && (e.t === 'list' || e.t === 'tuple')) {
      for (const item of e.items ?? []) if (item.k === 'str') (this.ir.all ??= []).push(item.v);
    }
  }

  private assignment(n: TsNode, where: Where): void {
    const rightNode = n.childForFieldName('right');
    const typeNode = n.childForFieldName('type');
    const ann = typeNode ? this.annotation(typeNode, where) : undefined;
    // a = b = value: the right side is itself an assignment.
    const value: Expr = rightNode
      ? rightNode.type === 'assignment'
        ? this.chained(rightNode, where)
        : this.expr(rightNode, where)
      : UNKNOWN;
    const left = n.childForFieldName('left');
    if (!left) return;
    if (where.scope === 0 && left.type === 'identifier' && left.text === '__all__') {
      this.ir.all = [];
      this.extendAll(value);
    }
    const hasValue = rightNode !== null;
    this.bindTarget(
      left,
      where,
      // The name is bound once the statement has run: `x = x.parent` reads the earlier `x`.
      (path) => ({ k: 'assign', value, ...(ann ? { ann } : {}), ...(path.length ? { path } : {}), pos: n.endIndex }),
      { value, ann, hasValue, statement: n },
    );
  }

  /** The value of `b = value` inside `a = b = value`, binding `b` on the way. */
  private chained(n: TsNode, where: Where): Expr {
    const rightNode = n.childForFieldName('right');
    const value = rightNode ? (rightNode.type === 'assignment' ? this.chained(rightNode, where) : this.expr(rightNode, where)) : UNKNOWN;
    const left = n.childForFieldName('left');
    if (left)
      this.bindTarget(left, where, (path) => ({ k: 'assign', value, ...(path.length ? { path } : {}), pos: n.endIndex }), {
        value,
        hasValue: true,
        statement: n,
      });
    return value;
  }

  /**
   * Binds the names of an assignment-like target. At module and class level a first binding
   * of a plain name is also a definition (variable, constant, class attribute); `self.x = …`
   * in a method records an instance attribute of its class.
   */
  private bindTarget(
    target: TsNode,
    where: Where,
    make: (path: UnpackPath, pos: number) => Binding,
    assign?:
      | { value: Expr; ann: Expr | undefined; hasValue: boolean; statement: TsNode }
      | { value: Expr; hasValue: boolean; statement: TsNode; ann?: undefined },
    path: number[] = [],
  ): void {
    switch (target.type) {
      case 'identifier': {
        const name = target.text;
        const scope = this.ir.scopes[where.scope]!;
        if (assign && (scope.kind === 'module' || scope.kind === 'class') && !scope.names.has(name)) {
          const kind: DefKind = scope.kind === 'class' ? 'field' : /^[A-Z][A-Z0-9_]*$/.test(name) ? 'constant' : 'variable';
          // A lambda bound to a name is a function.
          const lambda = assign.value.k === 'func' && path.length === 0;
          const statement = assign.statement;
          const id = this.define(lambda ? 'function' : kind, target, statement, where, {
            skeleton: this.assignmentSkeleton(statement),
          });
          if (lambda && assign.value.k === 'func') this.adoptLambda(assign.value.def, id);
          if (scope.kind === 'class' && assign.ann) (this.ir.defs[where.owner]!.fields ??= []).push(name);
          this.bind(where.scope, name, { k: 'def', def: id, pos: target.startIndex });
          this.bind(where.scope, name, make(path, target.startIndex));
          return;
        }
        if (assign && scope.kind === 'class' && assign.ann) (this.ir.defs[where.owner]!.fields ??= []).push(name);
        this.bind(where.scope, name, make(path, target.startIndex));
        return;
      }
      case 'attribute': {
        const obj = target.childForFieldName('object');
        const attr = target.childForFieldName('attribute');
        if (obj?.type === 'identifier' && attr && where.selfOf && obj.text === where.selfOf.name) {
          const cls = this.ir.defs[where.selfOf.cls]!;
          const b = make(path, target.startIndex);
          const ia: InstanceAttr = { scope: where.scope, pos: target.startIndex };
          if (b.k === 'assign') {
            if (assign?.hasValue !== false) ia.value = b.value;
            if (b.ann) ia.ann = b.ann;
            if (b.path) ia.path = b.path;
          }
          if (b.k === 'assign' || b.k === 'for' || b.k === 'with') {
            cls.instanceAttrs ??= new Map();
            let list = cls.instanceAttrs.get(attr.text);
            if (!list) cls.instanceAttrs.set(attr.text, (list = []));
            if (b.k === 'assign') list.push(ia);
            else list.push({ scope: where.scope, pos: target.startIndex });
          }
          return;
        }
        this.expr(target, where);
        return;
      }
      case 'pattern_list':
      case 'tuple_pattern':
      case 'list_pattern':
      case 'tuple':
      case 'list':
      case 'parenthesized_expression': {
        let i = 0;
        for (const c of target.namedChildren) {
          if (!c) continue;
          if (target.type === 'parenthesized_expression') {
            this.bindTarget(c, where, make, assign, path);
            return;
          }
          if (c.type === 'list_splat_pattern' || c.type === 'list_splat') {
            const inner = c.namedChildren[0];
            if (inner?.type === 'identifier') this.bind(where.scope, inner.text, { k: 'unknown', pos: inner.startIndex });
          } else this.bindTarget(c, where, make, assign ? { ...assign, value: UNKNOWN } : undefined, [...path, i]);
          i++;
        }
        return;
      }
      default:
        // subscripts and other targets bind no name; calls inside them still count.
        this.expr(target, where);
    }
  }

  private assignmentSkeleton(statement: TsNode): string {
    const line = statement.text.split('\n', 1)[0] ?? '';
    return line.length > 200 ? `${line.slice(0, 200)}…` : line;
  }

  /** A lambda bound to a name takes the name's definition as its own (its calls belong to it). */
  private adoptLambda(lambdaDef: number, id: number): void {
    const lambda = this.ir.defs[lambdaDef];
    const def = this.ir.defs[id]!;
    if (!lambda) return;
    def.scope = lambda.scope;
    def.params = lambda.params ?? [];
    def.returnExprs = lambda.returnExprs ?? [];
    this.ir.scopes[lambda.scope]!.def = id;
    // The calls of the lambda's body (recorded since it began) and its parameters belong to the name now.
    for (let i = this.lambdaCalls.get(lambdaDef) ?? this.ir.calls.length; i < this.ir.calls.length; i++) {
      const c = this.ir.calls[i]!;
      if (c.caller === lambdaDef) c.caller = id;
    }
    for (const list of this.ir.scopes[lambda.scope]!.names.values())
      for (const b of list) if (b.k === 'param' && b.def === lambdaDef) b.def = id;
  }

  // ---- definitions ----

  private decorated(n: TsNode, where: Where): void {
    const decorators: Expr[] = [];
    const names: string[] = [];
    for (const c of n.namedChildren) {
      if (c?.type !== 'decorator') continue;
      const e = c.namedChildren[0];
      if (!e) continue;
      // A bare decorator (`@cached`) is a call of it; `@route("/")` is a call whose result is called.
      const expr = this.expr(e, where);
      if (e.type === 'identifier' || e.type === 'attribute') this.recordCall(e, expr, where, true);
      decorators.push(expr);
      names.push(writtenName(e.type === 'call' ? (e.childForFieldName('function') ?? e) : e));
    }
    const def = n.childForFieldName('definition');
    if (def?.type === 'function_definition') this.functionDef(def, n, decorators, where, names);
    else if (def?.type === 'class_definition') this.classDef(def, n, decorators, where, names);
  }

  private functionDef(n: TsNode, outerNode: TsNode, decorators: Expr[], where: Where, decoratorNames: string[] = []): void {
    const nameNode = n.childForFieldName('name');
    if (!nameNode) return;
    const scopeKind = this.ir.scopes[where.scope]!.kind;
    const inClass = scopeKind === 'class';
    const isProperty = inClass && decoratorNames.some((d) => d === 'property' || d.endsWith('cached_property'));
    const accessor = inClass ? decoratorNames.find((d) => /\.(setter|deleter|getter)$/.test(d)) : undefined;
    const kind: DefKind = inClass ? (isProperty || accessor ? 'property' : 'method') : 'function';
    const params = n.childForFieldName('parameters');
    const returnNode = n.childForFieldName('return_type');
    // Defaults and annotations are evaluated where the def statement runs.
    const paramList = params ? this.parameters(params, where) : [];
    const returns = returnNode ? this.annotation(returnNode, where) : undefined;
    const id = this.define(kind, nameNode, n, where, {
      opens: 'function',
      decorators,
      decoratorNames,
      params: paramList,
      ...(returns ? { returns } : {}),
      ...(n.text.startsWith('async') ? { isAsync: true } : {}),
      ...(accessor ? { sigSuffix: `@${accessor.slice(accessor.lastIndexOf('.') + 1)}` } : {}),
      skeleton: skeletonOf(outerNode, n, this.text, MAX_DOC),
    });
    if (returnNode) this.typeRef(id, returns!, returnNode, where, 'types');
    const def = this.ir.defs[id]!;
    // Accessors (`@x.setter`) share the property's name: bind only the first.
    if (!accessor) this.bind(where.scope, nameNode.text, { k: 'def', def: id, pos: nameNode.startIndex });
    const inner: Where = { scope: def.scope, owner: id, fn: id };
    const isStatic = decoratorNames.includes('staticmethod');
    paramList.forEach((p, index) => {
      this.bind(def.scope, p.name, {
        k: 'param',
        def: id,
        index,
        ...(p.ann ? { ann: p.ann } : {}),
        ...(p.dflt ? { dflt: p.dflt } : {}),
        ...(p.star ? { star: p.star } : {}),
        pos: -1,
      });
    });
    const first = paramList[0];
    if (inClass && !isStatic && first && !first.star && where.owner >= 0) inner.selfOf = { cls: where.owner, name: first.name };
    for (const p of paramList) if (p.ann) this.typeRefOfParam(id, p, params!, where);
    const body = n.childForFieldName('body');
    if (body) this.block(body, inner);
  }

  private typeRefOfParam(owner: number, p: ParamIR, params: TsNode, where: Where): void {
    for (const c of params.namedChildren) {
      if (!c) continue;
      const name = c.childForFieldName('name') ?? c.namedChildren.find((x) => x?.type === 'identifier');
      const type = c.childForFieldName('type');
      if (name?.text === p.name && type) this.typeRef(owner, p.ann!, type, where, 'types');
    }
  }

  private parameters(params: TsNode, where: Where): ParamIR[] {
    const out: ParamIR[] = [];
    for (const c of params.namedChildren) {
      if (!c) continue;
      switch (c.type) {
        case 'identifier':
          out.push({ name: c.text });
          break;
        case 'typed_parameter': {
          const inner = c.namedChildren[0];
          const type = c.childForFieldName('type');
          const ann = type ? this.annotation(type, where) : undefined;
          if (inner?.type === 'identifier') out.push({ name: inner.text, ...(ann ? { ann } : {}) });
          else if (inner?.type === 'list_splat_pattern' || inner?.type === 'dictionary_splat_pattern') {
            const id = inner.namedChildren[0];
            if (id) out.push({ name: id.text, star: inner.type === 'list_splat_pattern' ? '*' : '**', ...(ann ? { ann } : {}) });
          }
          break;
        }
        case 'default_parameter':
        case 'typed_default_parameter': {
          const name = c.childForFieldName('name');
          const type = c.childForFieldName('type');
          const value = c.childForFieldName('value');
          const ann = type ? this.annotation(type, where) : undefined;
          const dflt = value ? this.expr(value, where) : undefined;
          if (name?.type === 'identifier') out.push({ name: name.text, ...(ann ? { ann } : {}), ...(dflt ? { dflt } : {}) });
          break;
        }
        case 'list_splat_pattern':
        case 'dictionary_splat_pattern': {
          const id = c.namedChildren[0];
          if (id?.type === 'identifier') out.push({ name: id.text, star: c.type === 'list_splat_pattern' ? '*' : '**' });
          break;
        }
        case 'tuple_pattern':
          // Python 2 tuple parameters: the names are bound, untyped.
          for (const id of c.descendantsOfType('identifier')) if (id) out.push({ name: id.text });
          break;
        default:
          break;
      }
    }
    return out;
  }

  private classDef(n: TsNode, outerNode: TsNode, decorators: Expr[], where: Where, decoratorNames: string[] = []): void {
    const nameNode = n.childForFieldName('name');
    if (!nameNode) return;
    const bases: Expr[] = [];
    const supers = n.childForFieldName('superclasses');
    const baseNodes: TsNode[] = [];
    if (supers) {
      for (const c of supers.namedChildren) {
        if (!c) continue;
        if (c.type === 'keyword_argument') {
          const v = c.childForFieldName('value');
          if (v) this.expr(v, where);
          continue;
        }
        bases.push(this.expr(c, where));
        baseNodes.push(c);
      }
    }
    const id = this.define('class', nameNode, n, where, {
      opens: 'class',
      decorators,
      decoratorNames,
      bases,
      skeleton: skeletonOf(outerNode, n, this.text, MAX_DOC),
    });
    baseNodes.forEach((b, i) => this.typeRef(id, bases[i]!, b, where, 'inherits'));
    this.bind(where.scope, nameNode.text, { k: 'def', def: id, pos: nameNode.startIndex });
    const body = n.childForFieldName('body');
    if (body) this.block(body, { scope: this.ir.defs[id]!.scope, owner: id, fn: -1 });
  }

  private typeRef(owner: number, expr: Expr, node: TsNode, where: Where, kind: 'types' | 'inherits'): void {
    if (expr.k === 'unknown' || expr.k === 'lit') return;
    this.ir.typeRefs.push({ owner, expr, scope: where.scope, range: this.range(node), written: writtenName(node), kind });
  }

  // ---- imports ----

  private importStatement(n: TsNode, where: Where): void {
    for (const c of n.namedChildren) {
      if (!c) continue;
      if (c.type === 'dotted_name') {
        const module = c.text.replace(/\s+/g, '');
        // `import a.b.c` binds `a`, the top package.
        const top = module.split('.')[0]!;
        this.bind(where.scope, top, { k: 'import', module: top, level: 0, pos: c.startIndex });
        this.ir.imports.push({ module, level: 0, names: [], range: this.range(c), written: [module] });
      } else if (c.type === 'aliased_import') {
        const name = c.childForFieldName('name');
        const alias = c.childForFieldName('alias');
        if (!name) continue;
        const module = name.text.replace(/\s+/g, '');
        if (alias) this.bind(where.scope, alias.text, { k: 'import', module, level: 0, pos: alias.startIndex });
        this.ir.imports.push({ module, level: 0, names: [], range: this.range(c), written: [module] });
      }
    }
  }

  private importFrom(n: TsNode, where: Where): void {
    const moduleNode = n.childForFieldName('module_name');
    if (!moduleNode) return;
    let level = 0;
    let module = '';
    if (moduleNode.type === 'relative_import') {
      for (const c of moduleNode.children) {
        if (c?.type === 'import_prefix') level = c.text.length;
        else if (c?.type === 'dotted_name') module = c.text.replace(/\s+/g, '');
      }
    } else module = moduleNode.text.replace(/\s+/g, '');
    const prefix = '.'.repeat(level) + module;
    const entry: ImportIR = { module, level, names: [], range: this.range(n), written: [] };
    let star = false;
    for (const c of n.namedChildren) {
      if (!c || sameNode(c, moduleNode)) continue;
      if (c.type === 'wildcard_import') star = true;
      else if (c.type === 'dotted_name') {
        const name = c.text;
        entry.names.push(name);
        entry.written.push(joinImport(prefix, name));
        this.bind(where.scope, name, { k: 'import', module, level, name, pos: c.startIndex });
      } else if (c.type === 'aliased_import') {
        const name = c.childForFieldName('name');
        const alias = c.childForFieldName('alias');
        if (!name) continue;
        entry.names.push(name.text);
        entry.written.push(joinImport(prefix, name.text));
        this.bind(where.scope, (alias ?? name).text, { k: 'import', module, level, name: name.text, pos: (alias ?? name).startIndex });
      }
    }
    if (star) {
      entry.star = true;
      entry.written.push(prefix);
      const s = this.ir.scopes[where.scope]!;
      (s.stars ??= []).push({ module, level, pos: n.startIndex });
    }
    this.ir.imports.push(entry);
  }

  // ---- expressions ----

  private exprField(n: TsNode, field: string, where: Where): Expr {
    const c = n.childForFieldName(field);
    return c ? this.expr(c, where) : UNKNOWN;
  }

  /** An annotation: like an expression, but a string is a forward reference. */
  private annotation(n: TsNode, where: Where): Expr {
    return this.expr(n.type === 'type' ? (n.namedChildren[0] ?? n) : n, where);
  }

  private recordCall(fnNode: TsNode, fn: Expr, where: Where, decorator = false, call?: Expr & { k: 'call' }): void {
    const nameNode = fnNode.type === 'attribute' ? fnNode.childForFieldName('attribute') : fnNode;
    if (!nameNode || nameNode.type !== 'identifier') return;
    const site: CallIR = {
      callee: fn,
      scope: where.scope,
      caller: where.owner,
      range: this.range(nameNode),
      line: nameNode.startPosition.row + 1,
      col: nameNode.startPosition.column,
      endCol: nameNode.endPosition.column,
      written: writtenOf(fn) ?? writtenName(fnNode),
      pos: nameNode.startIndex,
      ...(decorator ? { decorator: true } : {}),
    };
    if (call) call.site = this.ir.calls.length;
    this.ir.calls.push(site);
  }

  private expr(n: TsNode, where: Where): Expr {
    switch (n.type) {
      case 'identifier':
        return { k: 'name', id: n.text, pos: n.startIndex };
      case 'attribute': {
        const obj = n.childForFieldName('object');
        const attr = n.childForFieldName('attribute');
        return { k: 'attr', obj: obj ? this.expr(obj, where) : UNKNOWN, name: attr?.text ?? '' };
      }
      case 'call': {
        const fnNode = n.childForFieldName('function');
        const fn = fnNode ? this.expr(fnNode, where) : UNKNOWN;
        const argsNode = n.childForFieldName('arguments');
        const args: Expr[] = [];
        const call: Expr & { k: 'call' } = { k: 'call', fn, args };
        if (fnNode && (fnNode.type === 'identifier' || fnNode.type === 'attribute')) {
          // super() is not a call of a definition; `super().f()` is, through the attribute.
          if (!(fnNode.type === 'identifier' && fnNode.text === 'super')) this.recordCall(fnNode, fn, where, false, call);
        }
        if (argsNode) {
          for (const a of argsNode.namedChildren) {
            if (!a) continue;
            if (a.type === 'keyword_argument') {
              const v = a.childForFieldName('value');
              if (v) this.expr(v, where);
            } else {
              const e = this.expr(a, where);
              if (args.length < 4) args.push(e);
            }
          }
        }
        return call;
      }
      case 'subscript': {
        const value = n.childForFieldName('value');
        const obj = value ? this.expr(value, where) : UNKNOWN;
        const idx: Expr[] = [];
        for (const c of n.childrenForFieldName('subscript')) if (c) idx.push(this.expr(c, where));
        return { k: 'sub', obj, idx };
      }
      case 'generic_type': {
        // `List[X]` in an annotation.
        const head = n.namedChildren[0];
        const params = n.namedChildren.find((c) => c?.type === 'type_parameter');
        const idx: Expr[] = [];
        if (params) for (const c of params.namedChildren) if (c) idx.push(this.annotation(c, where));
        return { k: 'sub', obj: head ? this.expr(head, where) : UNKNOWN, idx };
      }
      case 'type':
        return this.annotation(n, where);
      case 'string': {
        let hasInterpolation = false;
        for (const c of n.namedChildren) {
          if (c?.type === 'interpolation') {
            hasInterpolation = true;
            for (const e of c.namedChildren) if (e && e.type !== 'format_specifier' && e.type !== 'type_conversion') this.expr(e, where);
          }
        }
        if (hasInterpolation) return { k: 'lit', t: 'str' };
        return { k: 'str', v: stringValue(n), pos: n.startIndex };
      }
      case 'concatenated_string':
        for (const c of n.namedChildren) if (c) this.expr(c, where);
        return { k: 'lit', t: 'str' };
      case 'integer':
        return { k: 'lit', t: 'int' };
      case 'float':
        return { k: 'lit', t: 'float' };
      case 'true':
      case 'false':
        return { k: 'lit', t: 'bool' };
      case 'none':
        return { k: 'lit', t: 'none' };
      case 'list':
      case 'tuple':
      case 'set': {
        const items: Expr[] = [];
        for (const c of n.namedChildren) if (c) items.push(this.expr(c, where));
        return { k: 'lit', t: n.type, items };
      }
      case 'dictionary': {
        const items: Expr[] = [];
        const values: Expr[] = [];
        for (const c of n.namedChildren) {
          if (c?.type === 'pair') {
            const key = c.childForFieldName('key');
            const value = c.childForFieldName('value');
            items.push(key ? this.expr(key, where) : UNKNOWN);
            values.push(value ? this.expr(value, where) : UNKNOWN);
          } else if (c) this.expr(c, where);
        }
        return { k: 'lit', t: 'dict', items, values };
      }
      case 'parenthesized_expression': {
        const inner = n.namedChildren[0];
        return inner ? this.expr(inner, where) : UNKNOWN;
      }
      case 'binary_operator': {
        const left = this.exprField(n, 'left', where);
        const right = this.exprField(n, 'right', where);
        const op = n.childForFieldName('operator')?.type;
        if (op === '|') return { k: 'union', items: [left, right] };
        if (op === '%' && left.k === 'str') return { k: 'lit', t: 'str' };
        return UNKNOWN;
      }
      case 'boolean_operator': {
        const left = this.exprField(n, 'left', where);
        const right = this.exprField(n, 'right', where);
        return n.childForFieldName('operator')?.type === 'or' ? { k: 'union', items: [left, right] } : { k: 'union', items: [right] };
      }
      case 'conditional_expression': {
        const parts = n.namedChildren.filter((c): c is TsNode => c !== null).map((c) => this.expr(c, where));
        return { k: 'union', items: [parts[0] ?? UNKNOWN, parts[2] ?? UNKNOWN] };
      }
      case 'await': {
        const inner = n.namedChildren[0];
        return { k: 'await', e: inner ? this.expr(inner, where) : UNKNOWN };
      }
      case 'lambda':
        return this.lambda(n, where);
      case 'named_expression': {
        const name = n.childForFieldName('name');
        const value = this.exprField(n, 'value', where);
        // `:=` binds in the enclosing function, not in a comprehension.
        let scope = where.scope;
        while (this.ir.scopes[scope]!.kind === 'comprehension') scope = this.ir.scopes[scope]!.parent;
        if (name) this.bind(scope, name.text, { k: 'assign', value, pos: name.startIndex });
        return value;
      }
      case 'list_comprehension':
      case 'set_comprehension':
      case 'dictionary_comprehension':
      case 'generator_expression':
        return this.comprehension(n, where);
      case 'yield':
        if (where.fn >= 0) this.ir.defs[where.fn]!.isGenerator = true;
        for (const c of n.namedChildren) if (c) this.expr(c, where);
        return UNKNOWN;
      case 'keyword_argument': {
        const v = n.childForFieldName('value');
        if (v) this.expr(v, where);
        return UNKNOWN;
      }
      case 'comment':
        return UNKNOWN;
      default:
        for (const c of n.namedChildren) if (c) this.expr(c, where);
        return UNKNOWN;
    }
  }

  /** A lambda: its own scope for parameters; its calls belong to the definition around it. */
  private lambda(n: TsNode, where: Where): Expr {
    const params = n.childForFieldName('parameters');
    const paramList = params ? this.parameters(params, where) : [];
    // An anonymous definition (sig ''): no node is emitted for it, so its calls go to the
    // definition around it, unless an assignment names it (adoptLambda).
    const id = this.ir.defs.length;
    this.lambdaCalls.set(id, this.ir.calls.length);
    const scope = this.newScope('lambda', -1, where.scope);
    this.ir.defs.push({
      kind: 'function',
      name: '<lambda>',
      qname: '<lambda>',
      sig: '',
      range: this.range(n),
      nameLine: n.startPosition.row + 1,
      nameCol: n.startPosition.column,
      parent: where.owner,
      scope,
      outer: where.scope,
      decorators: [],
      decoratorNames: [],
      params: paramList,
      returnExprs: [],
    });
    paramList.forEach((p, index) => this.bind(scope, p.name, { k: 'param', def: id, index, ...(p.dflt ? { dflt: p.dflt } : {}), pos: -1 }));
    const body = n.childForFieldName('body');
    if (body) this.ir.defs[id]!.returnExprs!.push(this.expr(body, { scope, owner: id, fn: -1 }));
    return { k: 'func', def: id };
  }

  private comprehension(n: TsNode, where: Where): Expr {
    const scope = this.newScope('comprehension', -1, where.scope);
    const inner: Where = { ...where, scope };
    const clauses = n.namedChildren.filter((c): c is TsNode => c !== null && (c.type === 'for_in_clause' || c.type === 'if_clause'));
    for (const c of clauses) {
      if (c.type === 'for_in_clause') {
        // The first iterable is evaluated outside; later ones see earlier targets.
        const right = c.childForFieldName('right');
        const iter = right ? this.expr(right, sameNode(c, clauses[0]) ? where : inner) : UNKNOWN;
        const left = c.childForFieldName('left');
        if (left) this.bindTarget(left, inner, (path, pos) => ({ k: 'for', iter, ...(path.length ? { path } : {}), pos }));
      } else for (const e of c.namedChildren) if (e) this.expr(e, inner);
    }
    const body = n.childForFieldName('body');
    const element = body ? this.expr(body, inner) : UNKNOWN;
    if (n.type === 'dictionary_comprehension') return { k: 'lit', t: 'dict' };
    return { k: 'lit', t: n.type === 'set_comprehension' ? 'set' : 'list', items: n.type === 'generator_expression' ? [] : [element] };
  }
}

/** The name of a callee as written, from its expression (`self.parse`); undefined past a non-name receiver. */
function writtenOf(e: Expr): string | undefined {
  if (e.k === 'name') return e.id;
  if (e.k !== 'attr') return undefined;
  const left = writtenOf(e.obj);
  return left === undefined ? undefined : `${left}.${e.name}`;
}

/** web-tree-sitter hands out a new object for every access to a node: compare positions. */
function sameNode(a: TsNode, b: TsNode | null | undefined): boolean {
  return b !== null && b !== undefined && a.startIndex === b.startIndex && a.endIndex === b.endIndex && a.type === b.type;
}

/** The classes of an `isinstance` check: a name, a dotted name or a tuple of them. */
function classNames(n: TsNode): Expr {
  if (n.type === 'identifier') return { k: 'name', id: n.text, pos: n.startIndex };
  if (n.type === 'attribute') {
    const obj = n.childForFieldName('object');
    const attr = n.childForFieldName('attribute');
    return obj && attr ? { k: 'attr', obj: classNames(obj), name: attr.text } : UNKNOWN;
  }
  if (n.type === 'tuple' || n.type === 'parenthesized_expression') {
    return { k: 'lit', t: 'tuple', items: n.namedChildren.filter((c): c is TsNode => c !== null).map(classNames) };
  }
  return UNKNOWN;
}

function joinImport(prefix: string, name: string): string {
  return prefix.endsWith('.') ? prefix + name : `${prefix}.${name}`;
}

/** The name of a callee or base as written (`self.parse`, `models.Model`); the member name when the receiver is an expression. */
export function writtenName(n: TsNode): string {
  if (n.type === 'identifier') return n.text;
  if (n.type === 'attribute') {
    const obj = n.childForFieldName('object');
    const attr = n.childForFieldName('attribute')?.text ?? '';
    if (obj && (obj.type === 'identifier' || obj.type === 'attribute')) {
      const left = writtenName(obj);
      return left ? `${left}.${attr}` : attr;
    }
    return attr;
  }
  if (n.type === 'type') return writtenName(n.namedChildren[0] ?? n);
  if (n.type === 'subscript') {
    const v = n.childForFieldName('value');
    return v ? writtenName(v) : '';
  }
  if (n.type === 'generic_type') return n.namedChildren[0] ? writtenName(n.namedChildren[0]) : '';
  if (n.type === 'string') return stringValue(n);
  return n.text.length <= 100 ? n.text : '';
}
