/**
 * What the resolver knows of the standard library's types: the results of their common
 * methods (`Option::unwrap`, `Vec::get`, iterator adapters, `RefCell::borrow` …), the parameters
 * of the closures their adapters take, and std's traits that construct `Self`. The model is
 * small on purpose: a method it does not know gives an unknown type, never a guess.
 */
import { deref, elementOf, type Ty } from './types.js';

/** Associated functions of std traits that make a `Self` (or a `Result` of one). */
export const SELF_CONSTRUCTORS: Record<string, 'self' | 'result'> = {
  default: 'self',
  from: 'self',
  from_iter: 'self',
  try_from: 'result',
  from_str: 'result',
};

/** Iterator adapters that keep the element type. */
const ITER_SAME = new Set([
  'filter',
  'skip',
  'take',
  'rev',
  'chain',
  'peekable',
  'by_ref',
  'skip_while',
  'take_while',
  'inspect',
  'cloned',
  'copied',
  'fuse',
  'step_by',
  'cycle',
  'into_iter',
  'iter',
]);
/** Iterator methods that give one element, maybe. */
const ITER_ONE = new Set([
  'next',
  'last',
  'nth',
  'max',
  'min',
  'find',
  'max_by_key',
  'min_by_key',
  'max_by',
  'min_by',
  'next_back',
  'peek',
]);
/** Methods whose closure arguments take two elements (`sort_by(|a, b| …)`). */
const TWO_ELEMENTS = new Set(['sort_by', 'sort_unstable_by', 'max_by', 'min_by', 'dedup_by', 'is_sorted_by']);

/**
 * The parameter types of the closures passed to a method of a receiver from outside the
 * program (`iter.map(|x| …)`, `opt.map(|v| …)`, `vec.retain(|e| …)`), or undefined.
 */
export function closureParams(recv: Ty | undefined, name: string): (Ty | undefined)[] | undefined {
  const r = deref(recv);
  if (!r || r.t !== 'std') return undefined;
  if (r.name === 'Option')
    return ['map', 'and_then', 'filter', 'is_some_and', 'map_or', 'map_or_else', 'inspect', 'take_if', 'is_none_or'].includes(name)
      ? [r.args[0]]
      : undefined;
  if (r.name === 'Result') {
    if (['map', 'and_then', 'is_ok_and', 'map_or', 'inspect'].includes(name)) return [r.args[0]];
    if (['map_err', 'or_else', 'unwrap_or_else', 'is_err_and', 'inspect_err'].includes(name)) return [r.args[1]];
    return undefined;
  }
  const elem = r.name === 'Iter' ? r.args[0] : elementOf(r);
  if (!elem) return undefined;
  if (TWO_ELEMENTS.has(name)) return [elem, elem];
  if (name === 'fold' || name === 'try_fold' || name === 'scan') return [undefined, elem];
  return [elem];
}

/** Methods of types outside the program whose result is known from the receiver. */
export function stdMethodResult(recv: Ty, name: string): Ty | undefined {
  const r = deref(recv);
  if (!r || r.t !== 'std') return undefined;
  const a0 = r.args[0];
  switch (r.name) {
    case 'Option':
      if (['unwrap', 'expect', 'unwrap_or', 'unwrap_or_else', 'unwrap_or_default', 'unwrap_unchecked'].includes(name)) return a0;
      if (
        [
          'as_ref',
          'as_mut',
          'as_deref',
          'as_deref_mut',
          'take',
          'clone',
          'cloned',
          'copied',
          'or',
          'or_else',
          'filter',
          'replace',
        ].includes(name)
      )
        return r;
      if (name === 'ok_or' || name === 'ok_or_else') return { t: 'std', name: 'Result', args: a0 ? [a0] : [] };
      if (name === 'get_or_insert' || name === 'get_or_insert_with' || name === 'insert') return a0;
      return undefined;
    case 'Result':
      if (['unwrap', 'expect', 'unwrap_or', 'unwrap_or_else', 'unwrap_or_default'].includes(name)) return a0;
      if (name === 'ok') return { t: 'std', name: 'Option', args: a0 ? [a0] : [] };
      if (name === 'err') return { t: 'std', name: 'Option', args: r.args[1] ? [r.args[1]] : [] };
      if (['as_ref', 'as_mut', 'clone', 'map_err', 'or_else'].includes(name)) return r;
      if (name === 'unwrap_err' || name === 'expect_err') return r.args[1];
      return undefined;
    case 'RefCell':
      if (name === 'borrow' || name === 'borrow_mut') return { t: 'std', name: 'Ref', args: a0 ? [a0] : [] };
      if (name === 'into_inner' || name === 'get_mut') return a0;
      return undefined;
    case 'Cell':
      return name === 'get' || name === 'take' || name === 'into_inner' ? a0 : undefined;
    case 'Mutex':
    case 'RwLock':
      if (name === 'lock' || name === 'read' || name === 'write')
        return { t: 'std', name: 'Result', args: [{ t: 'std', name: 'MutexGuard', args: a0 ? [a0] : [] }] };
      if (name === 'into_inner' || name === 'get_mut') return { t: 'std', name: 'Result', args: a0 ? [a0] : [] };
      return undefined;
    default:
      break;
  }
  const elem = elementOf(r);
  if (elem) {
    if (
      [
        'get',
        'get_mut',
        'first',
        'last',
        'first_mut',
        'last_mut',
        'pop',
        'pop_front',
        'pop_back',
        'front',
        'back',
        'front_mut',
        'back_mut',
        'next',
        'next_back',
        'peek',
        'iter().next',
      ].includes(name)
    )
      return { t: 'std', name: 'Option', args: [elem] };
    if (['iter', 'iter_mut', 'into_iter', 'drain', 'rev', 'skip', 'take', 'filter', 'chain', 'peekable', 'by_ref'].includes(name))
      return { t: 'std', name: 'Iter', args: [elem] };
    if (['clone', 'to_vec', 'to_owned'].includes(name)) return r;
    if (name === 'remove' || name === 'swap_remove') return elem;
  }
  if (r.name === 'Iter' && a0) {
    if (name === 'enumerate') return { t: 'std', name: 'Iter', args: [{ t: 'tuple', elems: [{ t: 'std', name: 'usize', args: [] }, a0] }] };
    if (ITER_SAME.has(name)) return r;
    if (ITER_ONE.has(name)) return { t: 'std', name: 'Option', args: [a0] };
  }
  if (['Rc', 'Arc', 'Box', 'String', 'str'].includes(r.name) && name === 'clone') return r;
  return undefined;
}
