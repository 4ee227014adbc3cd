/**
 * Types and paths as the syntax writes them, read into {@link TypeExpr}s and segment lists:
 * type nodes, path expressions, generic parameters with their bounds, parameters and fields.
 */
import type { Node as TsNode } from 'web-tree-sitter';
import type { FieldIR, GenericParam, ParamIR, TypeExpr } from './file-ir.js';

const UNKNOWN: TypeExpr = { k: 'unknown' };

/** The segments of a path expression or type path (`a::b::c`, `crate::x`, `::std::io`); undefined when it holds generics or qualified parts. */
export function pathSegments(n: TsNode): { segs: string[]; global: boolean } | undefined {
  switch (n.type) {
    case 'identifier':
    case 'type_identifier':
    case 'crate':
    case 'super':
    case 'self':
    case 'metavariable':
      return { segs: [n.text], global: false };
    case 'scoped_identifier':
    case 'scoped_type_identifier': {
      const p = n.childForFieldName('path');
      const name = n.childForFieldName('name');
      if (!name) return undefined;
      if (!p) return { segs: [name.text], global: n.text.startsWith('::') };
      const head = p.type === 'generic_type' ? pathSegments(p.childForFieldName('type') ?? p) : pathSegments(p);
      if (!head) return undefined;
      return { segs: [...head.segs, name.text], global: head.global };
    }
    default:
      return undefined;
  }
}

/** A type node as a {@link TypeExpr}. */
export function typeOf(n: TsNode): TypeExpr {
  switch (n.type) {
    case 'type_identifier':
    case 'primitive_type':
    case 'identifier':
      return { k: 'path', segs: [n.text], args: [] };
    case 'scoped_type_identifier':
    case 'scoped_identifier': {
      const p = n.childForFieldName('path');
      if (p?.type === 'bracketed_type') {
        const q = p.namedChildren[0];
        const name = n.childForFieldName('name')?.text ?? '';
        if (q?.type === 'qualified_type') {
          const t = q.childForFieldName('type');
          const a = q.childForFieldName('alias');
          return { k: 'qualified', self: t ? typeOf(t) : UNKNOWN, trait: a ? typeOf(a) : UNKNOWN, name };
        }
        return UNKNOWN;
      }
      const segs = pathSegments(n);
      return segs ? { k: 'path', segs: segs.segs, args: [], ...(segs.global ? { global: true } : {}) } : UNKNOWN;
    }
    case 'generic_type': {
      const t = n.childForFieldName('type');
      const args = n.childForFieldName('type_arguments');
      const base = t ? typeOf(t) : UNKNOWN;
      if (base.k !== 'path') return base;
      const list: TypeExpr[] = [];
      let item: TypeExpr | undefined;
      let target: TypeExpr | undefined;
      for (const a of args?.namedChildren ?? []) {
        if (!a || a.type === 'lifetime' || a.type === 'trait_bounds') continue;
        if (a.type === 'type_binding') {
          const t = a.childForFieldName('type');
          const name = a.childForFieldName('name')?.text;
          if (name === 'Item' && t) item = typeOf(t);
          else if (name === 'Target' && t) target = typeOf(t);
          continue;
        }
        list.push(typeOf(a));
      }
      return { ...base, args: list, ...(item ? { item } : {}), ...(target ? { target } : {}) };
    }
    case 'reference_type':
    case 'pointer_type': {
      const t = n.childForFieldName('type');
      return { k: 'ref', inner: t ? typeOf(t) : UNKNOWN, ...(n.type === 'pointer_type' ? { raw: true } : {}) };
    }
    case 'tuple_type': {
      const elems = n.namedChildren.filter((c): c is TsNode => c !== null);
      // `&(dyn Subscriber + Send + Sync)`: a type in parentheses, not a one-element tuple (`(T,)`).
      if (elems.length === 1 && !/,\s*\)$/.test(n.text)) return typeOf(elems[0]!);
      return { k: 'tuple', elems: elems.map(typeOf) };
    }
    case 'unit_type':
      return { k: 'tuple', elems: [] };
    case 'array_type': {
      const e = n.childForFieldName('element');
      return { k: 'array', elem: e ? typeOf(e) : UNKNOWN };
    }
    case 'dynamic_type':
    case 'abstract_type': {
      const t = n.childForFieldName('trait');
      if (!t) return UNKNOWN;
      return { k: 'bounds', traits: t.type === 'trait_bounds' ? boundsOf(t) : [typeOf(t)] };
    }
    case 'bounded_type':
      // `dyn Sub + Send + Sync` parses as the bounds of `dyn Sub` and the rest: one list.
      return {
        k: 'bounds',
        traits: n.namedChildren
          .filter((c): c is TsNode => c !== null && c.type !== 'lifetime')
          .map(typeOf)
          .flatMap((t) => (t.k === 'bounds' ? t.traits : [t])),
      };
    case 'generic_type_with_turbofish':
      return typeOf(n.childForFieldName('type') ?? n);
    case 'function_type': {
      // `FnOnce(&A) -> R` as a bound: the trait, with the closure's parameter and return types;
      // a `fn(A) -> R` pointer: the path `fn`, with them.
      const t = n.childForFieldName('trait');
      const segs = t ? pathSegments(t)?.segs : ['fn'];
      if (!segs) return UNKNOWN;
      const params = n.childForFieldName('parameters');
      const fnArgs = (params?.namedChildren ?? []).filter((c): c is TsNode => c !== null && c.type !== 'lifetime').map(typeOf);
      const ret = n.childForFieldName('return_type');
      return { k: 'path', segs, args: [], fnArgs, ...(ret ? { fnRet: typeOf(ret) } : {}) };
    }
    default:
      return UNKNOWN;
  }
}

/** The traits of a `trait_bounds` node (lifetimes and `?Sized` left out). */
export function boundsOf(n: TsNode): TypeExpr[] {
  const out: TypeExpr[] = [];
  for (const c of n.namedChildren) {
    if (!c || c.type === 'lifetime' || c.type === 'removed_trait_bound') continue;
    if (c.type === 'higher_ranked_trait_bound') {
      // `for<'c> FnOnce(…)`: the bound (field `type` in tree-sitter-rust 0.20, `value` before).
      const v = c.childForFieldName('type') ?? c.childForFieldName('value');
      if (v) out.push(typeOf(v));
    } else out.push(typeOf(c));
  }
  return out;
}

/** Generic parameters with their bounds, from `<T: A>` and `where T: B`. */
export function genericsOf(n: TsNode): GenericParam[] | undefined {
  const out = new Map<string, GenericParam>();
  const tp = n.childForFieldName('type_parameters');
  for (const p of tp?.namedChildren ?? []) {
    if (!p) continue;
    if (p.type === 'type_identifier') out.set(p.text, { name: p.text, bounds: [] });
    else if (p.type === 'constrained_type_parameter') {
      const left = p.childForFieldName('left');
      const b = p.childForFieldName('bounds');
      if (left && left.type === 'type_identifier') out.set(left.text, { name: left.text, bounds: b ? boundsOf(b) : [] });
    } else if (p.type === 'optional_type_parameter') {
      const name = p.childForFieldName('name');
      const dflt = p.childForFieldName('default_type');
      if (name) out.set(name.text, { name: name.text, bounds: [], ...(dflt ? { default: typeOf(dflt) } : {}) });
    }
  }
  const where = n.namedChildren.find((c) => c?.type === 'where_clause');
  for (const w of where?.namedChildren ?? []) {
    if (w?.type !== 'where_predicate') continue;
    const left = w.childForFieldName('left');
    const b = w.childForFieldName('bounds');
    if (!left || !b) continue;
    const key = left.text;
    const g = out.get(key) ?? { name: key, bounds: [] };
    g.bounds.push(...boundsOf(b));
    out.set(key, g);
  }
  return out.size > 0 ? [...out.values()] : undefined;
}

/** Whether a parameter list starts with a receiver: `self`, `&self`, `&mut self`, `mut self`, `self: Box<Self>`. */
export function hasSelfParam(params: TsNode | null | undefined): boolean {
  return (
    params?.namedChildren.some(
      (p) => p?.type === 'self_parameter' || (p?.type === 'parameter' && p.childForFieldName('pattern')?.type === 'self'),
    ) ?? false
  );
}

/**
 * The declared type of a receiver written `self: Pin<&mut Self>` (any type but `Self`, `&Self`
 * and `&mut Self`), which method calls on `self` see first (`Pin`'s own methods).
 */
export function typedSelfOf(params: TsNode | null | undefined): TypeExpr | undefined {
  const p = params?.namedChildren.find((c) => c?.type === 'parameter' && c.childForFieldName('pattern')?.type === 'self');
  const t = p?.childForFieldName('type');
  if (!t || /^&?\s*(mut\s+)?Self$/.test(t.text.replace(/'\w+\s*/g, '').trim())) return undefined;
  return typeOf(t);
}

export function paramsOf(n: TsNode): ParamIR[] {
  const out: ParamIR[] = [];
  for (const p of n.namedChildren) {
    if (p?.type !== 'parameter') continue;
    const pat = p.childForFieldName('pattern');
    // `self: &Self`, `self: Box<Self>`: the receiver, as `&self` is (see hasSelfParam).
    if (pat?.type === 'self') continue;
    const t = p.childForFieldName('type');
    const name = pat?.type === 'identifier' ? pat.text : pat?.type === 'mut_pattern' ? pat.namedChildren[0]?.text : undefined;
    out.push({ ...(name ? { name } : {}), type: t ? typeOf(t) : UNKNOWN });
  }
  return out;
}

/** `pub` → 'pub'; `pub(crate)`, `pub(super)`, `pub(in …)`, `crate` → 'restricted'. */
function visibilityOf(v: TsNode | null | undefined): FieldIR['visibility'] {
  if (!v) return undefined;
  return v.text.replace(/\s+/g, '') === 'pub' ? 'pub' : 'restricted';
}

export function fieldsOf(body: TsNode): FieldIR[] {
  const out: FieldIR[] = [];
  const named = body.type === 'field_declaration_list';
  if (!named && body.type !== 'ordered_field_declaration_list') return out;
  // `struct S(#[pin] F, pub G)`: attribute items (pin-project's `#[pin]`) come before each field.
  const types = named ? undefined : new Set(body.childrenForFieldName('type').map((t) => t?.id));
  let pinned = false;
  for (const c of body.namedChildren) {
    if (c?.type === 'attribute_item' && /^#\[\s*pin\s*\]$/.test(c.text)) pinned = true;
    if (!c || (named ? c.type !== 'field_declaration' : !types!.has(c.id))) continue;
    const name = named ? c.childForFieldName('name')?.text : String(out.length);
    const t = named ? c.childForFieldName('type') : c;
    const visibility = visibilityOf(
      named
        ? c.namedChildren.find((x) => x?.type === 'visibility_modifier')
        : c.previousNamedSibling?.type === 'visibility_modifier'
          ? c.previousNamedSibling
          : null,
    );
    if (name !== undefined)
      out.push({
        name,
        type: t ? typeOf(t) : UNKNOWN,
        ...(pinned ? { pinned: true as const } : {}),
        ...(visibility ? { visibility } : {}),
      });
    pinned = false;
  }
  return out;
}

/** A short label of a type for impl paths: `Vec`, `Parser`, `&str`. */
export function typeLabel(t: TypeExpr): string {
  switch (t.k) {
    case 'path':
      return t.segs[t.segs.length - 1] ?? '_';
    case 'ref':
      return `&${typeLabel(t.inner)}`;
    case 'tuple':
      return `(${t.elems.map(typeLabel).join(', ')})`;
    case 'array':
      return `[${typeLabel(t.elem)}]`;
    case 'bounds':
      return `dyn ${t.traits.map(typeLabel).join(' + ')}`;
    case 'qualified':
      return `<${typeLabel(t.self)} as ${typeLabel(t.trait)}>::${t.name}`;
    case 'unknown':
      return '_';
  }
}
