/**
 * Reads one Rust syntax tree into a {@link FileIR}: every item with its path below the file's
 * module, signature, skeleton and attributes, the types Phase B needs (fields, parameters,
 * return types, generic bounds, impl targets) and every `use`. Function bodies are not read
 * here; {@link Extraction.bodies} hands them to the body walker while the tree is alive.
 */
import type { Range } from '@travsr/sdk';
import { type LineIndex, parseErrorDiagnostic } from '@travsr/sdk/tree-sitter';
import { compileRules, expand, type MacroRules } from './macro-rules.js';
import { boundsOf, fieldsOf, genericsOf, hasSelfParam, paramsOf, pathSegments, typedSelfOf, typeLabel, typeOf } from './type-syntax.js';
import type { Node as TsNode, Tree } from 'web-tree-sitter';
import { type FileIR, type Item, type ItemKind, type TypeExpr, type TypeRefIR, typePaths, type UseIR } from './file-ir.js';

/** A file's IR and, while its tree is alive, the body of each function by item index. */
export interface Extraction {
  ir: FileIR;
  bodies: Map<number, TsNode>;
  /** Functions a macro of the file wrote: their bodies' positions are in the expansion, not the file. */
  expanded: Set<number>;
  /** Trees parsed for items written inside macro invocations; bodies may point into them (the caller deletes them). */
  extraTrees: Tree[];
}

/** Parses Rust text (for the items of macro invocations), or undefined when it cannot. */
export type TextParser = (text: string) => Tree | undefined;

/**
 * A `macro_rules!` of another file of the program by name, with the name of its crate when that
 * is not the invoking file's (`$crate` then becomes `::name`); undefined when the program has
 * none the file can mean for sure. Phase A reads one file and has no such lookup.
 */
export type MacroLookup = (name: string) => { macro: MacroRules; crateName?: string } | undefined;

/** An item-position macro invocation whose tokens are read as items. */
interface ItemMacro {
  start: number;
  end: number;
  parent: number;
  prefix: string;
  local: boolean;
  /** Attributes every item inside gets (the cfg of a `cfg_if!` branch, an attribute wrapper's). */
  attrs?: string[];
  /** The macro invoked, when it is not this file's and not cfg_if (recorded in `FileIR.macroItems`). */
  macro?: string;
}

/** Most expansions read per file, and how deep macros may expand into macros. */
const MAX_EXPANSIONS = 2_000;
const MAX_EXPANSION_DEPTH = 4;

/** Words that say a macro's tokens hold items (`trait_template! { pub trait X { … } }`). */
const ITEM_WORDS = /\b(fn|impl|struct|enum|trait|mod|const|static|type|union|use)\s+[A-Za-z_<:]/;
/** Macros whose tokens are never items, or not in Rust syntax. */
const NON_ITEM_MACROS = new Set([
  'macro_rules',
  'include',
  'include_str',
  'include_bytes',
  'concat',
  'stringify',
  'env',
  'compile_error',
  'println',
  'eprintln',
  'format',
  'write',
  'writeln',
  'assert',
  'assert_eq',
  'assert_ne',
  'debug_assert',
  'panic',
  'vec',
]);

/** Longest skeleton kept (signature and doc comment). */
const MAX_SKELETON = 600;

/**
 * @example
 * ```ts
 * const { ir, bodies } = extractFile(tree, text, new LineIndex(text), 'src/lib.rs');
 * ir.items.find((i) => i.name === 'connect')?.path; // 'net::TcpStream::connect'
 * ```
 */
export function extractFile(
  tree: Tree,
  text: string,
  lines: LineIndex,
  path: string,
  parse?: TextParser,
  foreign?: MacroLookup,
): Extraction {
  return new Extractor(text, lines, path, parse, foreign).run(tree);
}

class Extractor {
  private readonly ir: FileIR;
  private readonly bodies = new Map<number, TsNode>();
  private readonly sigCount = new Map<string, number>();
  private readonly itemMacros: ItemMacro[] = [];
  private readonly extraTrees: Tree[] = [];
  /** True while reading the items of macro invocations (their own macros are not expanded again). */
  private inMacro = false;
  /** `macro_rules!` of this file by name, as their definitions come (textual scoping). */
  private readonly macros = new Map<string, MacroRules>();
  /** Invocations of this file's macros at item positions, expanded after the file's own items. */
  private readonly expansions: {
    text: string;
    range: Range;
    line: number;
    parent: number;
    prefix: string;
    local: boolean;
    depth: number;
    /** The invocation's cfgs (`#[cfg(feature = "std")] declare_error_trait!(…);`), given to every item it writes. */
    attrs: string[];
  }[] = [];
  /** Invocations of other files' macros (Phase B, with the program's lookup), expanded after the file's own. */
  private readonly foreignExpansions: Extractor['expansions'] = [];
  /** While reading an expansion: where its items are said to be (the invocation). */
  private origin: { range: Range; line: number } | undefined;
  private depth = 0;
  /** Functions whose body is in an expansion (its positions are not the file's). */
  private readonly expanded = new Set<number>();
  /** The names in `FileIR.foreignMacros`. */
  private readonly foreignNames = new Set<string>();

  constructor(
    private readonly text: string,
    private readonly lines: LineIndex,
    path: string,
    private readonly parse?: TextParser,
    private readonly foreign?: MacroLookup,
  ) {
    this.ir = { path, items: [], uses: [], typeRefs: [], range: { startLine: 1, startCol: 0, endLine: 1, endCol: 0 } };
  }

  run(tree: Tree): Extraction {
    const root = tree.rootNode;
    this.ir.range = this.range(root);
    const docs: string[] = [];
    const inner: string[] = [];
    for (const c of root.namedChildren) {
      if (!c) continue;
      if (c.type === 'line_comment' || c.type === 'block_comment') {
        const t = c.text;
        if (t.startsWith('//!') || t.startsWith('/*!')) docs.push(t.replace(/^\/\/!\s?|^\/\*!|\*\/$/g, '').trim());
      } else if (c.type === 'inner_attribute_item') {
        inner.push(attributeText(c));
      }
    }
    if (docs.length > 0) this.ir.doc = docs.join('\n').slice(0, MAX_SKELETON);
    if (inner.length > 0) this.ir.innerAttrs = inner;
    this.items(root, -1, '', false);
    const parseError = root.hasError ? parseErrorDiagnostic(tree, this.lines) : undefined;
    if (parseError) this.ir.parseError = parseError;
    this.macroItems();
    this.expandMacros();
    this.collectTypeRefs();
    return { ir: this.ir, bodies: this.bodies, extraTrees: this.extraTrees, expanded: this.expanded };
  }

  /** Items the file's own `macro_rules!` write where they are invoked, each placed at its invocation. */
  private expandMacros(): void {
    if (!this.parse) return;
    // The file's own first, all of them, then those of other files' macros (Phase B): the items
    // Phase A read keep their places and signatures (`Thing`, not `Thing@2`).
    let k = 0;
    let f = 0;
    for (;;) {
      const e =
        k < this.expansions.length && k < MAX_EXPANSIONS
          ? this.expansions[k++]!
          : f < this.foreignExpansions.length && f < MAX_EXPANSIONS
            ? this.foreignExpansions[f++]!
            : undefined;
      if (!e) break;
      const tree = this.parse(e.text);
      if (!tree) continue;
      this.extraTrees.push(tree);
      this.origin = { range: e.range, line: e.line };
      this.depth = e.depth;
      const first = this.ir.items.length;
      try {
        this.itemList(tree.rootNode.namedChildren, e.parent, e.prefix, e.local, e.attrs);
      } finally {
        this.origin = undefined;
        this.depth = 0;
      }
      for (const [i] of this.bodies) if (i >= first) this.expanded.add(i);
    }
  }

  /**
   * Items written inside item-position macro invocations (`trait_template! { pub trait X … }`,
   * `cfg_if! { … }`): the file is parsed again with everything but those tokens blanked out
   * (lines and columns stay where they are), and the items found there are read as if written
   * where the invocation is.
   */
  private macroItems(): void {
    if (this.itemMacros.length === 0 || !this.parse) return;
    const chars = this.text.split('');
    let k = 0;
    for (let i = 0; i < chars.length; i++) {
      while (k < this.itemMacros.length && this.itemMacros[k]!.end <= i) k++;
      const m = this.itemMacros[k];
      if (m && i >= m.start && i < m.end) continue;
      if (chars[i] !== '\n' && chars[i] !== '\r') chars[i] = ' ';
    }
    const tree = this.parse(chars.join(''));
    if (!tree) return;
    this.extraTrees.push(tree);
    this.inMacro = true;
    try {
      for (const m of this.itemMacros) {
        const nodes = tree.rootNode.namedChildren.filter((c): c is TsNode => c !== null && c.startIndex >= m.start && c.endIndex <= m.end);
        const first = { items: this.ir.items.length, uses: this.ir.uses.length };
        this.itemList(nodes, m.parent, m.prefix, m.local, m.attrs);
        if (m.macro)
          (this.ir.macroItems ??= []).push({
            macro: m.macro,
            parent: m.parent,
            items: [first.items, this.ir.items.length],
            uses: [first.uses, this.ir.uses.length],
          });
      }
    } finally {
      this.inMacro = false;
    }
  }

  /**
   * The branches of `cfg_if! { if #[cfg(a)] { … } else if #[cfg(b)] { … } else { … } }` (the
   * cfg-if crate's macro): each branch's items are read where they are, with the cfg the branch
   * stands for (`cfg(a)`, `cfg(all(not(a), b))`, `cfg(not(any(a, b)))`), so that a module tree
   * declared in one (`mod channel;`) is the crate's and twins across branches resolve by cfg.
   */
  private cfgIfBranches(tt: TsNode, parent: number, prefix: string, local: boolean, outer: string[]): void {
    const before: string[] = [];
    let pending: string | undefined;
    for (const c of tt.children) {
      if (!c || c.type !== 'token_tree') continue;
      if (c.text.startsWith('[')) {
        const meta = /^\[\s*cfg\s*\(([\s\S]*)\)\s*\]$/.exec(c.text)?.[1]?.replace(/\s+/g, ' ');
        // cfg-if 0.1 takes `#[cfg(a, b)]` for both.
        pending = meta !== undefined && hasTopLevelComma(meta) ? `all(${meta})` : meta;
        continue;
      }
      if (!c.text.startsWith('{')) continue;
      const not = before.map((p) => `not(${p})`);
      const cfg =
        pending !== undefined
          ? not.length > 0
            ? `cfg(all(${[...not, pending].join(', ')}))`
            : `cfg(${pending})`
          : before.length > 0
            ? `cfg(not(any(${before.join(', ')})))`
            : undefined;
      this.itemsInTokens(c, { parent, prefix, local, attrs: cfg ? [...outer, cfg] : outer });
      if (pending !== undefined) before.push(pending);
      pending = undefined;
    }
  }

  /** Reads the tokens inside a token tree's delimiters as items, later (see {@link macroItems}); an empty tree gives none. */
  private itemsInTokens(tt: TsNode, where: Omit<ItemMacro, 'start' | 'end'>): void {
    if (tt.endIndex - tt.startIndex > 2) this.itemMacros.push({ start: tt.startIndex + 1, end: tt.endIndex - 1, ...where });
  }

  /** The types each item's signature names (see {@link TypeRefIR}). */
  private collectTypeRefs(): void {
    const items = this.ir.items;
    items.forEach((it, i) => {
      // Generic parameters of the item and of the impl or trait around it are not types of the program.
      const skip = new Set<string>();
      for (let p = i; p !== -1; p = items[p]!.parent) for (const g of items[p]!.generics ?? []) skip.add(g.name);
      const add = (kind: TypeRefIR['kind'], t: TypeExpr | undefined) => {
        if (t) for (const type of typePaths(t, skip)) this.ir.typeRefs.push({ owner: i, kind, type });
      };
      for (const p of it.params ?? []) add('types', p.type);
      add('types', it.ret);
      for (const f of it.kind === 'field' ? [] : (it.fields ?? [])) add('types', f.type);
      add('types', it.aliased);
      for (const g of it.generics ?? []) for (const b of g.bounds) add('types', b);
      for (const s of it.supertraits ?? []) add('inherits', s);
      if (it.kind === 'impl') {
        add('implements', it.implTrait);
      }
    });
  }

  private range(n: TsNode): Range {
    return this.lines.range(n.startPosition, n.endPosition);
  }

  /** The items of a module body, a block, an impl or a trait. */
  private items(container: TsNode, parent: number, prefix: string, local: boolean): void {
    this.itemList(container.namedChildren, parent, prefix, local);
  }

  private itemList(children: readonly (TsNode | null)[], parent: number, prefix: string, local: boolean, outer: string[] = []): void {
    let attrs: string[] = [...outer];
    let docs: string[] = [];
    let firstLeading: TsNode | undefined;
    for (const c of children) {
      if (!c) continue;
      if (c.type === 'attribute_item') {
        attrs.push(attributeText(c));
        firstLeading ??= c;
        continue;
      }
      if (c.type === 'line_comment' || c.type === 'block_comment') {
        const t = c.text;
        if (/^\/\/\/[^/]|^\/\/\/$|^\/\*\*[^*]/.test(t)) {
          docs.push(t);
          firstLeading ??= c;
        } else if (!t.startsWith('//!')) {
          docs = [];
          firstLeading = undefined;
        }
        continue;
      }
      this.item(c, parent, prefix, local, attrs, docs, firstLeading);
      attrs = [...outer];
      docs = [];
      firstLeading = undefined;
    }
  }

  private item(
    n: TsNode,
    parent: number,
    prefix: string,
    local: boolean,
    attrs: string[],
    docs: string[],
    leading: TsNode | undefined,
  ): void {
    const name = n.childForFieldName('name');
    switch (n.type) {
      case 'mod_item': {
        if (!name) return;
        const body = n.childForFieldName('body');
        const pathAttr = attrs.map((a) => /^path\s*=\s*"([^"]*)"/.exec(a)?.[1]).find((p) => p !== undefined);
        const i = this.add(n, 'mod', name.text, parent, prefix, local, attrs, docs, leading, {
          ...(body ? {} : { external: true }),
          ...(pathAttr !== undefined ? { pathAttr } : {}),
        });
        if (body) this.items(body, i, this.ir.items[i]!.path, local);
        return;
      }
      case 'function_item':
      case 'function_signature_item': {
        if (!name) return;
        const params = n.childForFieldName('parameters');
        const ret = n.childForFieldName('return_type');
        const body = n.childForFieldName('body');
        const typedSelf = typedSelfOf(params);
        const i = this.add(n, 'fn', name.text, parent, prefix, local, attrs, docs, leading, {
          params: params ? paramsOf(params) : [],
          selfParam: hasSelfParam(params),
          ...(typedSelf ? { selfType: typedSelf } : {}),
          ...(ret ? { ret: typeOf(ret) } : {}),
          generics: genericsOf(n),
          body: body !== null,
        });
        if (body) {
          this.bodies.set(i, body);
          this.localItems(body, i, this.ir.items[i]!.path);
        }
        return;
      }
      case 'struct_item':
      case 'union_item': {
        if (!name) return;
        const body = n.childForFieldName('body');
        const i = this.add(n, n.type === 'struct_item' ? 'struct' : 'union', name.text, parent, prefix, local, attrs, docs, leading, {
          fields: body ? fieldsOf(body) : [],
          generics: genericsOf(n),
        });
        if (body?.type === 'field_declaration_list') this.fieldItems(body, i);
        return;
      }
      case 'enum_item': {
        if (!name) return;
        const i = this.add(n, 'enum', name.text, parent, prefix, local, attrs, docs, leading, { generics: genericsOf(n) });
        const body = n.childForFieldName('body');
        for (const v of body?.namedChildren ?? []) {
          if (v?.type !== 'enum_variant') continue;
          const vn = v.childForFieldName('name');
          const vb = v.childForFieldName('body');
          if (vn) this.add(v, 'variant', vn.text, i, this.ir.items[i]!.path, local, [], [], undefined, { fields: vb ? fieldsOf(vb) : [] });
        }
        return;
      }
      case 'trait_item': {
        if (!name) return;
        const bounds = n.childForFieldName('bounds');
        const i = this.add(n, 'trait', name.text, parent, prefix, local, attrs, docs, leading, {
          supertraits: bounds ? boundsOf(bounds) : [],
          generics: genericsOf(n),
        });
        const body = n.childForFieldName('body');
        if (body) this.items(body, i, this.ir.items[i]!.path, local);
        return;
      }
      case 'impl_item': {
        const self = n.childForFieldName('type');
        if (!self) return;
        const trait = n.childForFieldName('trait');
        const selfType = typeOf(self);
        const traitType = trait ? typeOf(trait) : undefined;
        const label = trait ? `<${typeLabel(selfType)} as ${typeLabel(traitType!)}>` : typeLabel(selfType);
        const i = this.ir.items.length;
        this.ir.items.push({
          kind: 'impl',
          name: self.text,
          parent,
          sig: '',
          path: prefix ? `${prefix}::${label}` : label,
          range: this.origin?.range ?? this.range(n),
          nameLine: this.origin?.line ?? self.startPosition.row + 1,
          pub: false,
          implSelf: selfType,
          ...(traitType ? { implTrait: traitType } : {}),
          generics: genericsOf(n),
          ...(attrs.length > 0 ? { attrs } : {}),
          ...(local ? { local } : {}),
        });
        const body = n.childForFieldName('body');
        // Members are addressed at the impl's path (`Type::name`), under the module that holds the impl.
        if (body) this.items(body, i, this.ir.items[i]!.path, local);
        return;
      }
      case 'type_item':
      case 'associated_type': {
        if (!name) return;
        const t = n.childForFieldName('type');
        const bounds = n.childForFieldName('bounds');
        this.add(n, 'type', name.text, parent, prefix, local, attrs, docs, leading, {
          ...(t ? { aliased: typeOf(t) } : {}),
          // An associated type's bounds (`type Iter: Iterator<Item = Self::Node>;`).
          ...(bounds ? { supertraits: boundsOf(bounds) } : {}),
          generics: genericsOf(n),
        });
        return;
      }
      case 'const_item':
      case 'static_item': {
        if (!name) return;
        const t = n.childForFieldName('type');
        const i = this.add(n, n.type === 'const_item' ? 'const' : 'static', name.text, parent, prefix, local, attrs, docs, leading, {
          ...(t ? { ret: typeOf(t) } : {}),
        });
        // `const _: () = { use …; impl Serialize for T { … } };` (serde's and rkyv's derives): the
        // block's items, as a function body's, are local to it.
        const value = n.childForFieldName('value');
        if (value?.type === 'block') this.localItems(value, i, this.ir.items[i]!.path);
        // A value that calls (`static DEFAULT: ValueParser = ValueParser::string();`) is a body
        // for the calls' readers; one without (a literal table) costs them nothing.
        if (value && ownDescendants(value, CALLS_AND_MACROS).length > 0) this.bodies.set(i, value);
        return;
      }
      case 'macro_definition': {
        if (!name) return;
        const rules = n.namedChildren
          .filter((r): r is TsNode => r?.type === 'macro_rule')
          .map((r) => ({ matcher: r.childForFieldName('left')?.text ?? '', body: r.childForFieldName('right')?.text ?? '' }));
        this.macros.set(name.text, compileRules(rules));
        this.add(n, 'macro', name.text, parent, prefix, local, attrs, docs, leading, {
          ...(attrs.some((a) => a.startsWith('macro_export')) ? { exported: true } : {}),
          rules,
        });
        return;
      }
      case 'use_declaration': {
        const arg = n.childForFieldName('argument');
        const cfg = attrs.filter((a) => a.startsWith('cfg'));
        const first = this.ir.uses.length;
        if (arg) this.uses(arg, [], false, parent, hasVisibility(n), this.range(n));
        if (cfg.length > 0) for (let k = first; k < this.ir.uses.length; k++) this.ir.uses[k]!.cfg = cfg;
        return;
      }
      case 'extern_crate_declaration': {
        const crate = n.childForFieldName('name');
        const alias = n.childForFieldName('alias');
        if (crate && crate.text !== 'self')
          this.ir.uses.push({
            scope: parent,
            segs: [crate.text],
            global: true,
            alias: alias?.text ?? crate.text,
            pub: hasVisibility(n),
            range: this.origin?.range ?? this.range(n),
          });
        return;
      }
      case 'expression_statement': {
        // `name!(…);` at item position parses as a statement.
        const inner = n.namedChildren[0];
        if (inner?.type === 'macro_invocation' && n.namedChildren.length === 1)
          this.item(inner, parent, prefix, local, attrs, docs, leading);
        return;
      }
      case 'macro_invocation': {
        if (this.inMacro || local) return;
        const macro = n.childForFieldName('macro');
        const last = macro?.type === 'scoped_identifier' ? macro.childForFieldName('name')?.text : macro?.text;
        const tt = n.namedChildren.find((c) => c?.type === 'token_tree');
        if (last === 'include' && !this.origin) {
          (this.ir.includes ??= []).push({ written: n.text.replace(/\s+/g, ' ').slice(0, 200), line: n.startPosition.row + 1 });
          return;
        }
        const own = last && macro?.type === 'identifier' ? this.macros.get(last) : undefined;
        // `#[cfg(…)]` on the invocation: every item it writes is under it.
        const cfg = attrs.filter((a) => /^cfg\s*\(/.test(a));
        // A macro that only puts attributes on the items it is given: they are read where they are written.
        if (own?.wrapper && tt && !this.origin) {
          this.itemsInTokens(tt, { parent, prefix, local, attrs: [...cfg, ...own.wrapper] });
          return;
        }
        // Tokens that are not items, given to a macro of another file (`define_section!(DebugAbbrev, …)`):
        // expanded when the program's lookup knows the macro (Phase B), else only recorded.
        // A path (`dep::make!`, `crate::make!`) is kept: which crate's macro it is.
        const qualifier = macro?.type === 'scoped_identifier' ? macro.childForFieldName('path')?.text.replace(/\s+/g, '') : undefined;
        const other =
          !own && last && tt && macro && last !== 'cfg_if' && !NON_ITEM_MACROS.has(last) && !ITEM_WORDS.test(tt.text)
            ? qualifier
              ? `${qualifier}::${last}`
              : last
            : undefined;
        if (other && !this.foreignNames.has(other)) {
          this.foreignNames.add(other);
          (this.ir.foreignMacros ??= []).push(other);
        }
        const found = other ? this.foreign?.(other) : undefined;
        if ((own || found) && tt && this.depth < MAX_EXPANSION_DEPTH) {
          const text = own ? expand(own, tt.text.slice(1, -1)) : expand(found!.macro, tt.text.slice(1, -1), found!.crateName);
          if (text !== undefined)
            (own ? this.expansions : this.foreignExpansions).push({
              text,
              range: this.origin?.range ?? this.range(n),
              line: this.origin?.line ?? n.startPosition.row + 1,
              parent,
              prefix,
              local,
              depth: this.depth + 1,
              attrs: cfg,
            });
          return;
        }
        if (this.origin) return;
        if (last === 'cfg_if' && tt) {
          this.cfgIfBranches(tt, parent, prefix, local, cfg);
          return;
        }
        if (!last || NON_ITEM_MACROS.has(last) || !tt || tt.endIndex - tt.startIndex < 4) return;
        if (!ITEM_WORDS.test(tt.text)) return;
        // pin-project-lite's `pin_project! { struct … }` does what pin-project's `#[pin_project]` does;
        // a `thread_local! { static X: T = … }` is a `LocalKey<T>` (see `isThreadLocal`).
        const written = last === 'pin_project' || last === 'thread_local' ? [...cfg, last] : cfg;
        this.itemsInTokens(tt, { parent, prefix, local, attrs: written, ...(macro?.type === 'identifier' ? { macro: last } : {}) });
        return;
      }
      case 'foreign_mod_item': {
        const body = n.childForFieldName('body');
        if (body) this.items(body, parent, prefix, local);
        return;
      }
      default:
        return;
    }
  }

  /** Named fields of a struct, union or struct variant as `field` items (members the graph can show). */
  private fieldItems(body: TsNode, parent: number): void {
    for (const f of body.namedChildren) {
      if (f?.type !== 'field_declaration') continue;
      const name = f.childForFieldName('name');
      if (name) this.add(f, 'field', name.text, parent, this.ir.items[parent]!.path, false, [], [], undefined, {});
    }
  }

  /** Items declared inside a function body (nested functions, types, impls, uses), in any block of it. */
  private localItems(body: TsNode, fn: number, prefix: string): void {
    // Each block of the body that declares items (found natively: walking every node costs more).
    const containers = new Map<number, TsNode>();
    for (const n of ownDescendants(body, ITEM_TYPE_LIST))
      if (n.parent && !containers.has(n.parent.id)) containers.set(n.parent.id, n.parent);
    for (const c of containers.values()) this.items(c, fn, prefix, true);
  }

  /** Flattens a use tree into one {@link UseIR} per name it binds. */
  private uses(n: TsNode, prefix: string[], global: boolean, scope: number, pub: boolean, range: Range): void {
    const push = (u: Omit<UseIR, 'scope' | 'pub' | 'range'>) => this.ir.uses.push({ scope, pub, range, ...u });
    switch (n.type) {
      case 'identifier':
      case 'crate':
      case 'super':
      case 'self':
      case 'metavariable': {
        if (n.type === 'self' && prefix.length > 0)
          push({ segs: prefix, alias: prefix[prefix.length - 1]!, ...(global ? { global } : {}) });
        else push({ segs: [...prefix, n.text], alias: n.text, ...(global ? { global } : {}) });
        return;
      }
      case 'scoped_identifier': {
        const segs = pathSegments(n);
        if (!segs) return;
        push({
          segs: [...prefix, ...segs.segs],
          alias: segs.segs[segs.segs.length - 1]!,
          ...(global || segs.global ? { global: true } : {}),
        });
        return;
      }
      case 'use_as_clause': {
        const p = n.childForFieldName('path');
        const alias = n.childForFieldName('alias');
        const segs = p ? pathSegments(p) : undefined;
        if (!segs || !alias) return;
        const full = segs.segs[segs.segs.length - 1] === 'self' ? segs.segs.slice(0, -1) : segs.segs;
        const g = global || segs.global;
        if (alias.text === '_') push({ segs: [...prefix, ...full], underscore: true, ...(g ? { global: true } : {}) });
        else push({ segs: [...prefix, ...full], alias: alias.text, ...(g ? { global: true } : {}) });
        return;
      }
      case 'use_wildcard': {
        const p = n.namedChildren[0];
        const segs = p ? pathSegments(p) : { segs: [], global: false };
        if (!segs) return;
        push({ segs: [...prefix, ...segs.segs], glob: true, ...(global || segs.global ? { global: true } : {}) });
        return;
      }
      case 'scoped_use_list': {
        const p = n.childForFieldName('path');
        const list = n.childForFieldName('list');
        const segs = p ? pathSegments(p) : { segs: [], global: n.text.startsWith('::') };
        if (!segs || !list) return;
        for (const c of list.namedChildren) if (c) this.uses(c, [...prefix, ...segs.segs], global || segs.global, scope, pub, range);
        return;
      }
      case 'use_list':
        for (const c of n.namedChildren) if (c) this.uses(c, prefix, global, scope, pub, range);
        return;
      default:
        return;
    }
  }

  private add(
    n: TsNode,
    kind: ItemKind,
    name: string,
    parent: number,
    prefix: string,
    local: boolean,
    attrs: string[],
    docs: string[],
    leading: TsNode | undefined,
    extra: Partial<Item>,
  ): number {
    const path = prefix ? `${prefix}::${name}` : name;
    const count = (this.sigCount.get(path) ?? 0) + 1;
    this.sigCount.set(path, count);
    const i = this.ir.items.length;
    const start = leading ?? n;
    this.ir.items.push({
      kind,
      name,
      parent,
      sig: count === 1 ? path : `${path}@${count}`,
      path,
      range: this.origin?.range ?? this.lines.range(start.startPosition, n.endPosition),
      nameLine: this.origin?.line ?? (n.childForFieldName('name') ?? n).startPosition.row + 1,
      skeleton: this.skeleton(n, attrs, docs),
      pub: hasVisibility(n),
      ...(attrs.length > 0 ? { attrs } : {}),
      ...(local ? { local } : {}),
      ...extra,
    });
    return i;
  }

  /** The doc comment, the attributes and the declaration up to its body. */
  private skeleton(n: TsNode, attrs: string[], docs: string[]): string {
    const body =
      n.type === 'mod_item' || n.type === 'function_item' || n.type === 'trait_item' || n.type === 'impl_item'
        ? n.childForFieldName('body')
        : null;
    // A node of an expansion is not in the file's text: its own.
    let head = body
      ? (this.origin ? n.text.slice(0, body.startIndex - n.startIndex) : this.text.slice(n.startIndex, body.startIndex)).trimEnd()
      : n.text;
    if (n.type === 'macro_definition') head = `macro_rules! ${n.childForFieldName('name')?.text ?? ''}`;
    if (head.length > MAX_SKELETON) head = `${head.slice(0, MAX_SKELETON)}…`;
    const parts = [...docs.map((d) => d.trimEnd()), ...attrs.map((a) => `#[${a}]`), head.replace(/\s*\n\s*/g, ' ')];
    const out = parts.join('\n');
    return out.length > MAX_SKELETON * 2 ? out.slice(out.length - MAX_SKELETON * 2) : out;
  }
}

/** Node types that are items (skipped by the body walker, read by {@link Extractor.items}). */
export const ITEM_TYPES = new Set([
  'function_item',
  'function_signature_item',
  'struct_item',
  'union_item',
  'enum_item',
  'trait_item',
  'impl_item',
  'type_item',
  'const_item',
  'static_item',
  'macro_definition',
  'use_declaration',
  'extern_crate_declaration',
  'mod_item',
  'foreign_mod_item',
]);

const ITEM_TYPE_LIST = [...ITEM_TYPES];

/** What makes a `const` or `static` value a body: a call, or a macro that may write one (one native walk finds both). */
const CALLS_AND_MACROS = ['call_expression', 'macro_invocation'];

/**
 * The descendants of a function body of the given types that belong to it: not inside an item
 * nested in it (a nested function's calls are its own).
 *
 * Found natively (`descendantsOfType`), then tested against the byte ranges of the items
 * nested in the body, which are few (most bodies have none): walking up each one's parents
 * costs more, as web-tree-sitter finds a parent by descending from the root.
 */
export function ownDescendants(body: TsNode, types: string | string[]): TsNode[] {
  const wanted = typeof types === 'string' ? [types] : types;
  const found: TsNode[] = [];
  if (wanted.every((t) => BODY_WALK_SET.has(t))) {
    for (const f of bodyWalk(body)) if (wanted.includes(f.type)) found.push(f.node);
  } else for (const n of body.descendantsOfType(wanted)) if (n) found.push(n);
  if (found.length === 0) return found;
  const nested = nestedItems(body);
  if (nested.length === 0) return found;
  return found.filter((n) => {
    const start = n.startIndex;
    const end = n.endIndex;
    for (const item of nested) {
      if (item.id === n.id || start < item.start || end > item.end) continue;
      // Ranges of a tree nest, so an item spanning a node is its ancestor, but for nodes that
      // share a bound with it (a zero-width node at its end, one spanning exactly the same
      // bytes): those ask their parents.
      return start !== item.start && end !== item.end ? false : ownedByWalk(n, body);
    }
    return true;
  });
}

/** The items nested in a body (the body itself left out), as byte ranges; kept per tree and body. */
function nestedItems(body: TsNode): readonly ItemSpan[] {
  let byBody = NESTED_ITEMS.get(body.tree);
  if (!byBody) NESTED_ITEMS.set(body.tree, (byBody = new Map<number, ItemSpan[]>()));
  let list = byBody.get(body.id);
  if (!list) {
    list = [];
    // The body's walk when its file is being read, else a walk for its items alone.
    const walked = BODY_WALKS.get(body.tree)?.get(body.id);
    const items = walked ? walked.filter((f) => ITEM_TYPES.has(f.type)).map((f) => f.node) : body.descendantsOfType(ITEM_TYPE_LIST);
    for (const n of items) if (n && n.id !== body.id) list.push({ id: n.id, start: n.startIndex, end: n.endIndex });
    byBody.set(body.id, list);
  }
  return list;
}

/**
 * The node types one walk of a body finds for the readers of a file's first reading: the items
 * nested in it (local items, and the ranges {@link ownDescendants} leaves out) and its calls
 * (the refs): one native walk instead of one per reader.
 */
const BODY_WALK_TYPES = [...ITEM_TYPE_LIST, 'call_expression'];
const BODY_WALK_SET: ReadonlySet<string> = new Set(BODY_WALK_TYPES);

/**
 * The descendants of a body of {@link BODY_WALK_TYPES}, in document order; kept per tree and
 * body until {@link forgetBodyWalks} (a kept parse would otherwise hold them for the session).
 */
function bodyWalk(body: TsNode): readonly { node: TsNode; type: string }[] {
  let byBody = BODY_WALKS.get(body.tree);
  if (!byBody) BODY_WALKS.set(body.tree, (byBody = new Map<number, { node: TsNode; type: string }[]>()));
  let list = byBody.get(body.id);
  if (!list) {
    list = [];
    for (const n of body.descendantsOfType(BODY_WALK_TYPES)) if (n) list.push({ node: n, type: n.type });
    byBody.set(body.id, list);
  }
  return list;
}

const BODY_WALKS = new WeakMap<Tree, Map<number, { node: TsNode; type: string }[]>>();

/** Lets go of the body walks of the trees of a file once its reading is done (the byte ranges of nested items stay). */
export function forgetBodyWalks(trees: readonly Tree[]): void {
  for (const t of trees) BODY_WALKS.delete(t);
}

/** An item's node id and byte range. */
interface ItemSpan {
  id: number;
  start: number;
  end: number;
}

const NESTED_ITEMS = new WeakMap<TsNode['tree'], Map<number, ItemSpan[]>>();

/** No item between `n` and `body`, by walking up `n`'s parents. */
function ownedByWalk(n: TsNode, body: TsNode): boolean {
  for (let p = n.parent; p && p.id !== body.id; p = p.parent) if (ITEM_TYPES.has(p.type)) return false;
  return true;
}

function attributeText(n: TsNode): string {
  const a = n.namedChildren.find((c) => c?.type === 'attribute');
  return (a?.text ?? n.text.replace(/^#!?\[|\]$/g, '')).replace(/\s+/g, ' ');
}

function hasVisibility(n: TsNode): boolean {
  return n.namedChildren.some((c) => c?.type === 'visibility_modifier');
}

/** Whether a cfg predicate list has a comma outside parentheses (`a, b`, not `all(a, b)`). */
function hasTopLevelComma(meta: string): boolean {
  let depth = 0;
  let quoted = false;
  for (const c of meta) {
    if (c === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) return true;
  }
  return false;
}
