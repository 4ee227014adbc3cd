/**
 * The methods of the common traits from outside a program (std's, futures', serde's, rand's), by the
 * trait's name, with those of their supertraits. A generic parameter bounded by one of them
 * (`W: Write`) calls that trait's method of a name before any extension trait's a blanket impl
 * gives it (`impl<W: Write> WriteExt for W`): rustc takes a parameter's bounds as its inherent
 * methods. A trait not listed here has methods the resolver cannot know, so a blanket impl over
 * it is not taken for a parameter bounded by it.
 */

const words = (s: string): string[] => s.trim().split(/\s+/);

const ITERATOR = words(`next size_hint count last advance_by nth step_by chain zip intersperse map for_each filter
  filter_map enumerate peekable skip_while take_while map_while skip take scan flat_map flatten fuse inspect by_ref
  collect partition try_fold try_for_each fold reduce try_reduce all any find find_map position rposition max min
  max_by_key max_by min_by_key min_by rev unzip copied cloned cycle sum product cmp partial_cmp eq ne lt le gt ge
  is_sorted is_sorted_by is_sorted_by_key is_partitioned array_chunks`);
const READ = words(`read read_vectored read_to_end read_to_string read_exact read_buf by_ref bytes chain take is_read_vectored`);
const IO_WRITE = words(`write write_vectored write_all write_all_vectored write_fmt flush by_ref is_write_vectored`);
const FMT_WRITE = words(`write_str write_char write_fmt`);
const STREAM = words(`poll_next size_hint`);
const FUTURE = words(`poll`);
const ASYNC_READ = words(`poll_read poll_read_vectored`);
const PARTIAL_EQ = words(`eq ne`);
const PARTIAL_ORD = [...PARTIAL_EQ, ...words(`partial_cmp lt le gt ge`)];
const FMT = words(`fmt`);
const RNG_CORE = words(`next_u32 next_u64 fill_bytes try_fill_bytes`);

const TABLE: Record<string, readonly string[]> = {
  Iterator: ITERATOR,
  DoubleEndedIterator: [...ITERATOR, ...words(`next_back nth_back rfold rfind try_rfold advance_back_by`)],
  ExactSizeIterator: [...ITERATOR, ...words(`len is_empty`)],
  FusedIterator: ITERATOR,
  IntoIterator: words(`into_iter`),
  Read: READ,
  // io::Write and fmt::Write share the name: either's methods.
  Write: [...IO_WRITE, ...FMT_WRITE],
  BufRead: [...READ, ...words(`fill_buf consume read_until read_line split lines has_data_left`)],
  Seek: words(`seek rewind stream_position stream_len`),
  Future: FUTURE,
  TryFuture: [...FUTURE, ...words(`try_poll`)],
  FusedFuture: [...FUTURE, ...words(`is_terminated`)],
  Stream: STREAM,
  TryStream: [...STREAM, ...words(`try_poll_next`)],
  FusedStream: [...STREAM, ...words(`is_terminated`)],
  Sink: words(`poll_ready start_send poll_flush poll_close`),
  AsyncRead: ASYNC_READ,
  AsyncWrite: words(`poll_write poll_write_vectored is_write_vectored poll_flush poll_shutdown poll_close`),
  AsyncBufRead: [...ASYNC_READ, ...words(`poll_fill_buf consume`)],
  AsyncSeek: words(`start_seek poll_complete poll_seek`),
  Hasher: words(`finish write write_u8 write_u16 write_u32 write_u64 write_u128 write_usize write_i8 write_i16 write_i32
    write_i64 write_i128 write_isize write_length_prefix write_str`),
  Hash: words(`hash hash_slice`),
  BuildHasher: words(`build_hasher hash_one`),
  Error: [...FMT, ...words(`source description cause backtrace provide`)],
  Display: FMT,
  Debug: FMT,
  Clone: words(`clone clone_from`),
  Copy: words(`clone clone_from`),
  Default: words(`default`),
  PartialEq: PARTIAL_EQ,
  Eq: PARTIAL_EQ,
  PartialOrd: PARTIAL_ORD,
  Ord: [...PARTIAL_ORD, ...words(`cmp max min clamp`)],
  Deref: words(`deref`),
  DerefMut: words(`deref deref_mut`),
  AsRef: words(`as_ref`),
  AsMut: words(`as_mut`),
  Borrow: words(`borrow`),
  BorrowMut: words(`borrow borrow_mut`),
  Into: words(`into`),
  From: words(`from`),
  TryInto: words(`try_into`),
  TryFrom: words(`try_from`),
  ToString: words(`to_string`),
  ToOwned: words(`to_owned clone_into`),
  FromStr: words(`from_str`),
  FromIterator: words(`from_iter`),
  Extend: words(`extend extend_one extend_reserve`),
  Sum: words(`sum`),
  Product: words(`product`),
  Fn: words(`call call_mut call_once`),
  FnMut: words(`call_mut call_once`),
  FnOnce: words(`call_once`),
  Any: words(`type_id`),
  Drop: words(`drop`),
  Index: words(`index`),
  IndexMut: words(`index index_mut`),
  Send: [],
  Sync: [],
  Sized: [],
  Unpin: [],
  Serialize: words(`serialize`),
  Deserialize: words(`deserialize deserialize_in_place`),
  Serializer: words(`serialize_bool serialize_i8 serialize_i16 serialize_i32 serialize_i64 serialize_i128 serialize_u8
    serialize_u16 serialize_u32 serialize_u64 serialize_u128 serialize_f32 serialize_f64 serialize_char serialize_str
    serialize_bytes serialize_none serialize_some serialize_unit serialize_unit_struct serialize_unit_variant
    serialize_newtype_struct serialize_newtype_variant serialize_seq serialize_tuple serialize_tuple_struct
    serialize_tuple_variant serialize_map serialize_struct serialize_struct_variant collect_seq collect_map collect_str
    is_human_readable`),
  Deserializer: words(`deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
    deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128 deserialize_f32
    deserialize_f64 deserialize_char deserialize_str deserialize_string deserialize_bytes deserialize_byte_buf
    deserialize_option deserialize_unit deserialize_unit_struct deserialize_newtype_struct deserialize_seq
    deserialize_tuple deserialize_tuple_struct deserialize_map deserialize_struct deserialize_enum deserialize_identifier
    deserialize_ignored_any is_human_readable`),
  RngCore: RNG_CORE,
  CryptoRng: RNG_CORE,
  Rng: [...RNG_CORE, ...words(`gen gen_range sample sample_iter fill try_fill gen_bool gen_ratio`)],
  SeedableRng: words(`from_seed seed_from_u64 from_rng from_entropy`),
  AsRawFd: words(`as_raw_fd`),
  IntoRawFd: words(`into_raw_fd`),
  AsFd: words(`as_fd`),
};

const path = (s: string): readonly string[] => s.split('::');
const IO = { Read: path('std::io::Read'), Write: path('std::io::Write'), BufRead: path('std::io::BufRead'), Seek: path('std::io::Seek') };
/** `AsRawFd` and its kin, by each module that re-exports them. */
const FD = ['std::os::fd', 'std::os::unix::io', 'std::os::unix::prelude'].flatMap((m) =>
  ['AsRawFd', 'AsFd', 'IntoRawFd'].map((t) => path(`${m}::${t}`)),
);

const ITER = [path('std::iter::Iterator')];

/**
 * std's impls of the outside traits above for std's types, by the type's name: a blanket impl of
 * the program over one of them (`impl<T: AsRawFd> AsSock for T`) answers those types
 * (`UdpSocket::as_sock`). Only types whose path is known to be std's are looked up here.
 */
const STD_IMPLS: Record<string, readonly (readonly string[])[]> = {
  File: [IO.Read, IO.Write, IO.Seek, ...FD],
  TcpStream: [IO.Read, IO.Write, ...FD],
  UnixStream: [IO.Read, IO.Write, ...FD],
  TcpListener: FD,
  UdpSocket: FD,
  UnixListener: FD,
  UnixDatagram: FD,
  OwnedFd: FD,
  Stdin: [IO.Read, ...FD],
  Stdout: [IO.Write, ...FD],
  Stderr: [IO.Write, ...FD],
  ChildStdin: [IO.Write, ...FD],
  ChildStdout: [IO.Read, ...FD],
  ChildStderr: [IO.Read, ...FD],
  Cursor: [IO.Read, IO.Write, IO.Seek, IO.BufRead],
  BufReader: [IO.Read, IO.BufRead, IO.Seek],
  BufWriter: [IO.Write, IO.Seek],
  LineWriter: [IO.Write],
  String: [path('std::fmt::Write')],
  // Iterators (`Iter` is also the resolver's own name for an iterator std's methods make: `s.chars()`).
  ...Object.fromEntries(
    `Iter IterMut IntoIter Drain Chars CharIndices Bytes Lines SplitWhitespace Enumerate Peekable Rev Skip Take Zip Chain
      Cloned Copied Filter FilterMap FlatMap Flatten Fuse StepBy TakeWhile SkipWhile Inspect Keys Values ReadDir Args`
      .split(/\s+/)
      .map((name) => [name, ITER]),
  ),
};

/** The outside traits std implements for its type `name` (see STD_IMPLS), as paths; empty when not listed. */
export function stdTypeTraits(name: string): readonly (readonly string[])[] {
  return STD_IMPLS[name] ?? [];
}

/** The methods of an outside trait, by the last segment of its path; undefined when not known. */
export function outsideTraitMethods(name: string): ReadonlySet<string> | undefined {
  const list = TABLE[name];
  if (!list) return undefined;
  return (cache[name] ??= new Set(list));
}

const cache: Record<string, ReadonlySet<string>> = {};
