/**
 * What the resolver knows of the standard library's types: the results of their common
 * methods (`Option::unwrap`, `Vec::get`, iterator adapters, `RefCell::borrow` …), the parameters
 * of the closures their adapters take, and std's traits that construct `Self`. The model is
 * small on purpose: a method it does not know gives an unknown type, never a guess.
 */
import { stdTypeTraits } from './outside-traits.js';
import { CONVERSIONS, CONVERTIBLE, deref, elementOf, RAW_POINTER, SLICE, type Ty } from './types.js';

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
  // `self.map_unchecked_mut(|s| &mut s.field)` on a `Pin<&mut Self>`: the closure gets the pointee.
  if (recv?.t === 'std' && recv.name === 'Pin' && (name === 'map_unchecked_mut' || name === 'map_unchecked')) return [recv.args[0]];
  const r = deref(recv);
  if (!r || r.t !== 'std') return undefined;
  if (r.name === 'LocalKey') return ['with', 'try_with'].includes(name) ? [r.args[0]] : undefined;
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
  if (r?.t === 'array') return elementMethodResult(r, r.elem, name);
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
    case RAW_POINTER:
      // `ptr.as_ref()`: `Option<&T>`; the pointer's other methods give pointers or values of no interest here.
      return name === 'as_ref' || name === 'as_mut' ? { t: 'std', name: 'Option', args: a0 ? [a0] : [] } : undefined;
    case 'Cell':
      return name === 'get' || name === 'take' || name === 'into_inner' ? a0 : undefined;
    case CONVERTIBLE:
      // `v.into()` of a `V: Into<Value>`: a `Value` (`path` holds the trait's name).
      return r.path && CONVERSIONS[r.path[0]!] === name ? a0 : undefined;
    case 'MaybeUninit':
      // `(*slot.as_ptr()).weight()`, `slot.assume_init_ref().weight()`: the value it holds.
      if (name === 'as_ptr' || name === 'as_mut_ptr') return { t: 'std', name: RAW_POINTER, args: a0 ? [a0] : [] };
      return ['assume_init', 'assume_init_read', 'assume_init_ref', 'assume_init_mut', 'write'].includes(name) ? a0 : undefined;
    case 'AtomicBool':
    case 'AtomicUsize':
    case 'AtomicIsize':
    case 'AtomicU8':
    case 'AtomicU16':
    case 'AtomicU32':
    case 'AtomicU64':
    case 'AtomicI8':
    case 'AtomicI16':
    case 'AtomicI32':
    case 'AtomicI64':
    case 'AtomicPtr': {
      // The value an atomic holds: `state.load(Relaxed).is_locked()` reaches a program trait implemented for `usize`.
      const value: Ty =
        r.name === 'AtomicPtr'
          ? { t: 'std', name: RAW_POINTER, args: a0 ? [a0] : [] }
          : { t: 'std', name: r.name.slice(6).toLowerCase(), args: [] };
      if (ATOMIC_VALUE_METHODS.has(name) || (name.startsWith('fetch_') && name !== 'fetch_update')) return value;
      if (name === 'compare_exchange' || name === 'compare_exchange_weak' || name === 'fetch_update')
        return { t: 'std', name: 'Result', args: [value, value] };
      return undefined;
    }
    case 'Entry':
      // A map's entry: `map.entry(k).or_default().push(x)`.
      if (['or_insert', 'or_insert_with', 'or_insert_with_key', 'or_default'].includes(name)) return r.args[1];
      if (name === 'key') return a0;
      return name === 'and_modify' ? r : undefined;
    case 'RangeInclusive':
      return name === 'start' || name === 'end' ? a0 : undefined;
    case 'Mutex':
    case 'RwLock':
      if (name === 'lock' || name === 'read' || name === 'write')
        return { t: 'std', name: 'Result', args: [{ t: 'std', name: 'MutexGuard', args: a0 ? [a0] : [] }] };
      if (name === 'into_inner' || name === 'get_mut') return { t: 'std', name: 'Result', args: a0 ? [a0] : [] };
      return undefined;
    default:
      // A map's own, never a sequence's (`IndexMap::pop` gives an entry, not a value).
      if (MAPS.has(r.name)) return mapMethodResult(r, name);
      break;
  }
  const elem = elementOf(r);
  if (elem) {
    const out = elementMethodResult(r, elem, name);
    if (out) return out;
  }
  // (An iterator whose element is not known stays one: `iterable.into_iter()` of an `I: IntoIterator`.)
  if (r.name === 'Iter' && ITER_SAME.has(name)) return r;
  if (r.name === 'Iter' && a0) {
    if (name === 'enumerate') return { t: 'std', name: 'Iter', args: [{ t: 'tuple', elems: [{ t: 'std', name: 'usize', args: [] }, a0] }] };
    if (ITER_ONE.has(name)) return { t: 'std', name: 'Option', args: [a0] };
  }
  if (['Rc', 'Arc', 'Box', 'String', 'str'].includes(r.name) && name === 'clone') return r;
  if (r.name === 'String' || r.name === 'str') {
    const out = TEXT_METHODS[name];
    if (out) return out;
  }
  if (INTEGERS.has(r.name)) {
    // `offset.checked_add(n)`: an `Option` of the integer; `wrapping_*`, `saturating_*`: the integer.
    if (name.startsWith('checked_')) return { t: 'std', name: 'Option', args: [r] };
    if (name.startsWith('wrapping_') || name.startsWith('saturating_') || INTEGER_SAME.has(name)) return r;
  }
  return undefined;
}

/** What `String`'s and `str`'s common methods give. */
const TEXT_METHODS: Readonly<Record<string, Ty>> = (() => {
  const std = (name: string, args: Ty[] = []): Ty => ({ t: 'std', name, args });
  const [str, string] = [std('str'), std('String')];
  return {
    as_str: str,
    as_mut_str: str,
    trim: str,
    trim_start: str,
    trim_end: str,
    to_string: string,
    to_owned: string,
    to_lowercase: string,
    to_uppercase: string,
    as_bytes: { t: 'array', elem: std('u8') },
    chars: std('Iter', [std('char')]),
    bytes: std('Iter', [std('u8')]),
    lines: std('Iter', [str]),
    split_whitespace: std('Iter', [str]),
  };
})();

/** Rust's integer types. */
const INTEGERS = new Set(['u8', 'u16', 'u32', 'u64', 'u128', 'usize', 'i8', 'i16', 'i32', 'i64', 'i128', 'isize']);
/** std's number types: an arithmetic operator on one gives its type. */
export const NUMBER_TYPES: ReadonlySet<string> = new Set([...INTEGERS, 'f32', 'f64']);
/** Integer methods that give the same integer type. */
const INTEGER_SAME = new Set([
  'min',
  'max',
  'clamp',
  'pow',
  'abs',
  'rotate_left',
  'rotate_right',
  'swap_bytes',
  'to_be',
  'to_le',
  'from_be',
  'from_le',
  'reverse_bits',
  'clone',
]);

/** std's maps (and indexmap's), whose iteration gives `(K, V)` entries. */
export const MAPS: ReadonlySet<string> = new Set(['HashMap', 'BTreeMap', 'IndexMap']);

/** A map's entries as iteration gives them: `(K, V)`. */
export function mapEntry(r: Ty & { t: 'std' }): Ty | undefined {
  const [k, v] = r.args;
  return k && v ? { t: 'tuple', elems: [k, v] } : undefined;
}

/** Methods of `HashMap`, `BTreeMap` and `IndexMap` that give entries, keys, or an `Option` of a value. */
function mapMethodResult(r: Ty & { t: 'std' }, name: string): Ty | undefined {
  const [k, v] = r.args;
  const option = (t: Ty | undefined): Ty | undefined => (t ? { t: 'std', name: 'Option', args: [t] } : undefined);
  const iter = (t: Ty | undefined): Ty | undefined => (t ? { t: 'std', name: 'Iter', args: [t] } : undefined);
  if (['iter', 'iter_mut', 'into_iter', 'drain'].includes(name)) return iter(mapEntry(r));
  if (name === 'keys' || name === 'into_keys') return iter(k);
  if (name === 'values' || name === 'values_mut' || name === 'into_values') return iter(v);
  if (['get_key_value', 'remove_entry', 'first_key_value', 'last_key_value', 'pop_first', 'pop_last'].includes(name))
    return option(mapEntry(r));
  // indexmap's: by position, and its `pop`, `first`, `last`.
  if (['get_index', 'get_index_mut', 'pop', 'first', 'last', 'swap_remove_index', 'shift_remove_index'].includes(name))
    return r.name === 'IndexMap' ? option(mapEntry(r)) : undefined;
  if (['get', 'get_mut', 'remove', 'insert', 'swap_remove', 'shift_remove'].includes(name)) return option(v);
  if (name === 'clone') return r;
  if (name === 'entry' && k && v) return { t: 'std', name: 'Entry', args: [k, v] };
  return undefined;
}

/** Methods of a sequence (`Vec<T>`, a slice, an array …) whose result is known from its element. */
function elementMethodResult(r: Ty, elem: Ty, name: string): Ty | undefined {
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
  if (name === 'clone' || name === 'to_owned') return r;
  if (name === 'to_vec') return { t: 'std', name: 'Vec', args: [elem] };
  // `v.split_last_mut()`: the element and the rest, maybe.
  if (['split_first', 'split_last', 'split_first_mut', 'split_last_mut'].includes(name))
    return { t: 'std', name: 'Option', args: [{ t: 'tuple', elems: [elem, { t: 'array', elem }] }] };
  if (name === 'remove' || name === 'swap_remove') return elem;
  return undefined;
}

const words = (s: string): ReadonlySet<string> => new Set(s.trim().split(/\s+/));

/** Methods of `std::sync::atomic`'s types that give the value held (the `fetch_*` ones too, but `fetch_update`). */
const ATOMIC_VALUE_METHODS = words('load swap into_inner get_mut compare_and_swap');

/** Inherent functions of `Rc` and `Arc`. */
const SHARED_POINTER_INHERENT = words(`new new_cyclic new_uninit new_zeroed pin try_new try_unwrap into_inner unwrap_or_clone
  into_raw from_raw as_ptr downgrade weak_count strong_count increment_strong_count decrement_strong_count get_mut
  get_mut_unchecked make_mut ptr_eq downcast new_uninit_slice assume_init new_in`);
/** Inherent methods of `f32` and `f64`. */
const FLOAT_INHERENT = words(`floor ceil round round_ties_even trunc fract abs signum copysign mul_add div_euclid rem_euclid
  powi powf sqrt exp exp2 ln log log2 log10 abs_sub cbrt hypot sin cos tan asin acos atan atan2 sin_cos exp_m1 ln_1p sinh
  cosh tanh asinh acosh atanh is_nan is_infinite is_finite is_subnormal is_normal classify is_sign_positive
  is_sign_negative next_up next_down recip to_degrees to_radians max min maximum minimum midpoint to_int_unchecked to_bits
  from_bits to_be_bytes to_le_bytes to_ne_bytes from_be_bytes from_le_bytes from_ne_bytes total_cmp clamp`);
/** Inherent methods of the integer types (`u64::wrapping_add` comes before a trait's `wrapping_add`). */
const INTEGER_INHERENT = words(`checked_add checked_sub checked_mul checked_div checked_rem checked_neg checked_shl checked_shr
  checked_pow checked_abs checked_div_euclid checked_rem_euclid wrapping_add wrapping_sub wrapping_mul wrapping_div
  wrapping_rem wrapping_neg wrapping_shl wrapping_shr wrapping_pow wrapping_abs saturating_add saturating_sub saturating_mul
  saturating_div saturating_pow saturating_abs overflowing_add overflowing_sub overflowing_mul overflowing_div
  overflowing_rem overflowing_neg overflowing_shl overflowing_shr overflowing_pow pow abs signum is_positive is_negative
  count_ones count_zeros leading_zeros trailing_zeros leading_ones trailing_ones rotate_left rotate_right swap_bytes
  reverse_bits to_be to_le from_be from_le to_be_bytes to_le_bytes to_ne_bytes from_be_bytes from_le_bytes from_ne_bytes
  min_value max_value from_str_radix div_euclid rem_euclid is_power_of_two next_power_of_two checked_next_power_of_two
  abs_diff unsigned_abs ilog ilog2 ilog10 isqrt`);

/** Inherent methods of `OsStr` (and, through `Deref`, `OsString`). */
const OS_STR_INHERENT = words(`new to_str to_string_lossy to_os_string is_empty len into_os_string make_ascii_lowercase
  make_ascii_uppercase to_ascii_lowercase to_ascii_uppercase is_ascii eq_ignore_ascii_case display`);
/** Inherent methods of `Path` (and, through `Deref`, `PathBuf`). */
const PATH_INHERENT = words(`new as_os_str as_mut_os_str to_str to_string_lossy to_path_buf is_absolute is_relative
  has_root parent ancestors file_name strip_prefix starts_with ends_with file_stem file_prefix extension join
  with_file_name with_extension components iter display metadata symlink_metadata canonicalize read_link read_dir
  exists try_exists is_file is_dir is_symlink into_path_buf`);
/** Inherent methods of `CStr` (and, through `Deref`, `CString`). */
const CSTR_INHERENT = words(`from_ptr from_bytes_with_nul from_bytes_until_nul from_bytes_with_nul_unchecked as_ptr
  to_bytes to_bytes_with_nul to_str to_string_lossy into_c_string is_empty count_bytes`);

/**
 * Inherent methods of the std types a program most often extends with traits of its own (Rust
 * 1.63). Method lookup takes a type's inherent method before any trait's of the same name at the
 * same receiver step, so `opt.as_ref()` is `Option::as_ref` even where the program implements a
 * trait with an `as_ref` for `Option<T>`: no edge to the program's trait item.
 */
export const STD_INHERENT_METHODS: Readonly<Record<string, ReadonlySet<string>>> = {
  Option: words(`is_some is_some_and is_none as_ref as_mut as_pin_ref as_pin_mut expect unwrap unwrap_or unwrap_or_else
    unwrap_or_default unwrap_unchecked map inspect map_or map_or_else ok_or ok_or_else as_deref as_deref_mut iter iter_mut
    and and_then filter or or_else xor insert get_or_insert get_or_insert_with take replace contains zip unzip copied cloned
    transpose flatten`),
  Result: words(`is_ok is_ok_and is_err is_err_and ok err as_ref as_mut map map_or map_or_else map_err inspect inspect_err
    as_deref as_deref_mut iter iter_mut expect unwrap unwrap_or_default expect_err unwrap_err into_ok into_err and and_then
    or or_else unwrap_or unwrap_or_else unwrap_unchecked unwrap_err_unchecked contains contains_err copied cloned transpose
    flatten`),
  Vec: words(`new with_capacity from_raw_parts capacity reserve reserve_exact try_reserve try_reserve_exact shrink_to_fit
    shrink_to into_boxed_slice truncate as_slice as_mut_slice as_ptr as_mut_ptr set_len swap_remove insert remove retain
    retain_mut dedup_by_key dedup_by push pop append drain clear len is_empty split_off resize_with leak spare_capacity_mut
    resize extend_from_slice extend_from_within dedup splice drain_filter`),
  String: words(`new with_capacity from_utf8 from_utf8_lossy from_utf16 from_utf16_lossy from_raw_parts from_utf8_unchecked
    into_bytes as_str as_mut_str push_str extend_from_within capacity reserve reserve_exact try_reserve try_reserve_exact
    shrink_to_fit shrink_to push as_bytes truncate pop remove retain insert insert_str as_mut_vec len is_empty split_off
    clear drain replace_range into_boxed_str`),
  str: words(`len is_empty is_char_boundary as_bytes as_bytes_mut as_ptr as_mut_ptr get get_mut get_unchecked
    get_unchecked_mut slice_unchecked split_at split_at_mut chars char_indices bytes split_whitespace split_ascii_whitespace
    lines encode_utf16 contains starts_with ends_with find rfind split split_inclusive rsplit split_terminator
    rsplit_terminator splitn rsplitn split_once rsplit_once matches rmatches match_indices rmatch_indices trim trim_start
    trim_end trim_left trim_right trim_matches trim_start_matches strip_prefix strip_suffix trim_end_matches
    trim_left_matches trim_right_matches parse is_ascii eq_ignore_ascii_case make_ascii_uppercase make_ascii_lowercase
    escape_debug escape_default escape_unicode replace replacen to_lowercase to_uppercase repeat to_ascii_uppercase
    to_ascii_lowercase into_string into_boxed_bytes`),
  // Slices and arrays.
  [SLICE]: words(`len is_empty first first_mut split_first split_first_mut split_last split_last_mut last last_mut get get_mut
    get_unchecked get_unchecked_mut as_ptr as_mut_ptr as_ptr_range as_mut_ptr_range swap reverse iter iter_mut windows
    chunks chunks_mut chunks_exact chunks_exact_mut rchunks rchunks_mut split_at split_at_mut split splitn rsplit rsplitn
    contains starts_with ends_with strip_prefix strip_suffix binary_search binary_search_by binary_search_by_key
    sort_unstable sort_unstable_by sort_unstable_by_key select_nth_unstable rotate_left rotate_right fill fill_with
    clone_from_slice copy_from_slice copy_within swap_with_slice align_to align_to_mut partition_point sort sort_by
    sort_by_key sort_by_cached_key to_vec into_vec repeat concat join is_ascii eq_ignore_ascii_case make_ascii_uppercase
    make_ascii_lowercase escape_ascii to_ascii_uppercase to_ascii_lowercase map as_slice as_mut_slice each_ref each_mut`),
  ...Object.fromEntries([...INTEGERS].map((t) => [t, INTEGER_INHERENT])),
  f32: FLOAT_INHERENT,
  f64: FLOAT_INHERENT,
  char: words(`is_digit to_digit from_digit from_u32 from_u32_unchecked len_utf8 len_utf16 encode_utf8 encode_utf16
    is_alphabetic is_lowercase is_uppercase is_whitespace is_alphanumeric is_control is_numeric to_lowercase to_uppercase
    is_ascii to_ascii_uppercase to_ascii_lowercase eq_ignore_ascii_case make_ascii_uppercase make_ascii_lowercase
    is_ascii_alphabetic is_ascii_uppercase is_ascii_lowercase is_ascii_alphanumeric is_ascii_digit is_ascii_hexdigit
    is_ascii_punctuation is_ascii_graphic is_ascii_whitespace is_ascii_control escape_unicode escape_debug escape_default`),
  bool: words('then then_some'),
  Box: words(`new pin new_uninit new_zeroed try_new try_new_uninit new_in pin_in from_raw from_raw_in into_raw
    into_raw_with_allocator leak into_pin into_inner as_ptr as_mut_ptr downcast downcast_unchecked write assume_init
    allocator new_uninit_slice new_zeroed_slice into_boxed_slice from_non_null into_non_null`),
  Rc: SHARED_POINTER_INHERENT,
  Arc: SHARED_POINTER_INHERENT,
  // A unit struct with no functions of its own.
  PhantomData: new Set<string>(),
  // Paths and OS strings, which programs extend with traits of their own (nix's `NixPath::len`
  // for `OsStr`, `Path`, …): `name.as_ref().len()` on an `OsStr` is `OsStr::len`.
  OsStr: OS_STR_INHERENT,
  OsString: new Set([
    ...OS_STR_INHERENT,
    ...words('with_capacity as_os_str into_string push capacity clear reserve reserve_exact shrink_to_fit shrink_to into_boxed_os_str'),
  ]),
  Path: PATH_INHERENT,
  PathBuf: new Set([
    ...PATH_INHERENT,
    ...words(`with_capacity as_path push pop set_file_name set_extension into_os_string into_boxed_path capacity clear
      reserve reserve_exact shrink_to_fit shrink_to`),
  ]),
  CStr: CSTR_INHERENT,
  CString: new Set([
    ...CSTR_INHERENT,
    ...words(`from_vec_unchecked into_raw into_string into_bytes into_bytes_with_nul as_bytes as_bytes_with_nul as_c_str
      into_boxed_c_str from_vec_with_nul`),
  ]),
};

/**
 * Methods of the traits of std's prelude that std's types have (`From`, `Clone`, `Default`,
 * `PartialEq`, `Ord`, `ToString`, `ToOwned`, `AsRef`…): on such a type a trait of the program
 * with a method of the name would make the call ambiguous, so a call that compiles is std's.
 */
export const PRELUDE_TRAIT_METHODS: ReadonlySet<string> = words(`from into try_from try_into clone clone_from default
  to_owned to_string eq ne cmp partial_cmp lt le gt ge max min clamp as_ref as_mut from_iter into_iter extend`);

// ---- std's I/O ----

/** A std type by its path under `std` (`fs::File`), as a program's `use std::fs::File` reads it. */
function stdType(path: string, args: Ty[] = []): Ty {
  const segs = path.split('::');
  return { t: 'std', name: segs[segs.length - 1]!, args, path: segs, origin: ['std', ...segs] };
}
const UNIT: Ty = { t: 'tuple', elems: [] };
const USIZE: Ty = { t: 'std', name: 'usize', args: [] };
const U64: Ty = { t: 'std', name: 'u64', args: [] };
const PATH_BUF = stdType('path::PathBuf');
/** `io::Result<T>`: a `Result` whose error is `std::io::Error`, for the program's impls on `Result<T, io::Error>`. */
const ioResult = (t: Ty): Ty => ({ t: 'std', name: 'Result', args: [t, stdType('io::Error')] });

/** What the methods of std's I/O traits give, by trait and method (`Read::read`: `io::Result<usize>`). */
const IO_TRAIT_RESULTS: Readonly<Record<string, Readonly<Record<string, Ty>>>> = {
  Read: { read: USIZE, read_vectored: USIZE, read_to_end: USIZE, read_to_string: USIZE, read_exact: UNIT },
  Write: { write: USIZE, write_vectored: USIZE, write_all: UNIT, write_fmt: UNIT, flush: UNIT },
  Seek: { seek: U64, rewind: UNIT, stream_position: U64 },
  BufRead: { read_until: USIZE, read_line: USIZE },
};

/**
 * What a method of std's I/O traits gives on a std type that implements them (outside-traits.ts
 * `STD_IMPLS`): `file.read(buf)` is an `io::Result<usize>`, `out.flush()` an `io::Result<()>`, so
 * the program's traits on `io::Result` apply (`file.read(buf).with_err_path(…)`). Undefined for
 * any other method or type. The caller makes sure the type is std's, not a namesake's.
 */
export function ioMethodResult(typeName: string, name: string): Ty | undefined {
  for (const trait of stdTypeTraits(typeName)) {
    if (trait[1] !== 'io') continue; // `fmt::Write` of `String` gives a `fmt::Result`
    const out = IO_TRAIT_RESULTS[trait[trait.length - 1]!]?.[name];
    if (out) return ioResult(out);
  }
  return undefined;
}

/** What std's common file, I/O and environment functions give, by their path under `std`. */
const STD_FUNCTIONS: Readonly<Record<string, Ty>> = {
  'fs::read': ioResult({ t: 'std', name: 'Vec', args: [{ t: 'std', name: 'u8', args: [] }] }),
  'fs::read_to_string': ioResult({ t: 'std', name: 'String', args: [] }),
  'fs::write': ioResult(UNIT),
  'fs::remove_file': ioResult(UNIT),
  'fs::remove_dir': ioResult(UNIT),
  'fs::remove_dir_all': ioResult(UNIT),
  'fs::create_dir': ioResult(UNIT),
  'fs::create_dir_all': ioResult(UNIT),
  'fs::rename': ioResult(UNIT),
  'fs::hard_link': ioResult(UNIT),
  'fs::set_permissions': ioResult(UNIT),
  'fs::copy': ioResult(U64),
  'fs::metadata': ioResult(stdType('fs::Metadata')),
  'fs::symlink_metadata': ioResult(stdType('fs::Metadata')),
  'fs::canonicalize': ioResult(PATH_BUF),
  'fs::read_link': ioResult(PATH_BUF),
  'fs::read_dir': ioResult(stdType('fs::ReadDir')),
  'fs::File::open': ioResult(stdType('fs::File')),
  'fs::File::create': ioResult(stdType('fs::File')),
  'io::stdin': stdType('io::Stdin'),
  'io::stdout': stdType('io::Stdout'),
  'io::stderr': stdType('io::Stderr'),
  'env::current_dir': ioResult(PATH_BUF),
  'env::temp_dir': PATH_BUF,
};
/** The last segments of {@link STD_FUNCTIONS}' paths: a call named otherwise is not looked up. */
export const STD_FUNCTION_NAMES: ReadonlySet<string> = new Set(Object.keys(STD_FUNCTIONS).map((k) => k.slice(k.lastIndexOf(':') + 1)));

/**
 * What a call of one of std's file, I/O and environment functions gives (`fs::remove_file(p)`:
 * `io::Result<()>`; `File::open(p)`: `io::Result<File>`), by the function's path as the
 * program's `use` names it (`std::fs::remove_file`, `core::…` alike); undefined for any other.
 */
export function stdFunctionResult(origin: readonly string[]): Ty | undefined {
  if (origin.length < 3 || origin[0] !== 'std') return undefined;
  return STD_FUNCTIONS[origin.slice(1).join('::')];
}
