// Phase B on small crates: what the native resolver proves, and what it refuses to guess.
import { describe, expect, it } from 'vitest';
import { analyzeProject, calls } from './helpers/analyze-project.js';

const manifest = (name: string, extra = '') => `[package]\nname = "${name}"\nversion = "0.1.0"\nedition = "2021"\n${extra}`;

describe('modules and uses', () => {
  it("finds the file of a module named by a raw identifier (flume's `pub mod r#async;` in async.rs)", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('raw'),
      'src/lib.rs': 'pub mod r#async;\npub mod r#type { pub fn kind() {} }\nfn wait_lock() {}\npub fn go() { r#async::poll(); }\n',
      'src/async.rs': 'use crate::*;\npub fn poll() { wait_lock(); r#type::kind(); }\n',
    });
    expect(calls(r)).toEqual([
      'src/async.rs:poll -calls-> src/lib.rs:r#type::kind',
      'src/async.rs:poll -calls-> src/lib.rs:wait_lock',
      'src/lib.rs:go -calls-> src/async.rs:poll',
    ]);
    expect(r.diagnostics.get('src/lib.rs')?.map((d) => d.code) ?? []).not.toContain('UNRESOLVED_MODULE');
  });

  it('follows mod files, inline modules, #[path], use groups, globs, renames, self/super/crate and pub use re-exports', async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('shop'),
      'src/lib.rs': [
        'pub mod cart;',
        'mod pricing;',
        '#[path = "odd/place.rs"]',
        'mod placed;',
        'pub use pricing::total as price_total;',
        'pub mod util { pub fn fmt() {} pub mod deep { pub fn inner() { super::fmt(); crate::util::fmt(); } } }',
        'pub fn run() { cart::Cart::new().checkout(); price_total(1); placed::here(); util::deep::inner(); }',
        '',
      ].join('\n'),
      'src/cart.rs': [
        'use crate::{pricing::{self, total}, util::*};',
        'use super::placed::here as there;',
        'pub struct Cart;',
        'impl Cart {',
        '    pub fn new() -> Self { Cart }',
        '    pub fn checkout(&self) { total(2); pricing::total(3); fmt(); there(); }',
        '}',
        '',
      ].join('\n'),
      'src/pricing/mod.rs': 'mod tax;\npub fn total(x: u32) -> u32 { tax::rate(x) }\n',
      'src/pricing/tax.rs': 'pub fn rate(x: u32) -> u32 { x }\n',
      'src/odd/place.rs': 'pub fn here() {}\n',
    });
    expect(r.failed).toEqual([]);
    expect(calls(r)).toEqual([
      'src/cart.rs:Cart::checkout -calls-> src/lib.rs:util::fmt',
      'src/cart.rs:Cart::checkout -calls-> src/odd/place.rs:here',
      'src/cart.rs:Cart::checkout -calls-> src/pricing/mod.rs:total',
      'src/lib.rs:run -calls-> src/cart.rs:Cart::checkout',
      'src/lib.rs:run -calls-> src/cart.rs:Cart::new',
      'src/lib.rs:run -calls-> src/lib.rs:util::deep::inner',
      'src/lib.rs:run -calls-> src/odd/place.rs:here',
      'src/lib.rs:run -calls-> src/pricing/mod.rs:total',
      'src/lib.rs:util::deep::inner -calls-> src/lib.rs:util::fmt',
      'src/pricing/mod.rs:total -calls-> src/pricing/tax.rs:rate',
    ]);
    expect(r.edges).toContain('src/cart.rs: -imports-> src/pricing/mod.rs:');
  });

  it('lets a local item shadow an imported name, and a local binding shadow both', async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('shadow'),
      'src/lib.rs': [
        'mod a { pub fn go() {} }',
        'use a::go;',
        'fn helper() {}',
        'pub fn main1() { go(); }',
        'pub fn main2() { fn go() {} go(); }',
        'pub fn main3(helper: fn()) { helper(); }',
        'pub fn main4() { let go = || 1; go(); }',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual(['src/lib.rs:main1 -calls-> src/lib.rs:a::go', 'src/lib.rs:main2 -calls-> src/lib.rs:main2::go']);
  });

  it("reads the calls of const and static values: a function's own are its calls, another's the item's", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('consts'),
      'src/lib.rs': [
        'pub struct Parser;',
        'impl Parser {',
        '    pub const fn string() -> Parser { Parser }',
        '    pub const DEFAULT: Parser = Parser::string();',
        '}',
        'pub const fn size() -> usize { 4 }',
        'pub static GLOBAL: Parser = Parser::string();',
        'pub const TABLE: [u8; 3] = [1, 2, 3];',
        "pub fn get() -> &'static Parser {",
        '    static LOCAL: Parser = Parser::string();',
        '    const N: usize = size();',
        '    &LOCAL',
        '}',
        '',
      ].join('\n'),
    });
    expect(r.failed).toEqual([]);
    expect(calls(r)).toEqual([
      'src/lib.rs:GLOBAL -calls-> src/lib.rs:Parser::string',
      'src/lib.rs:Parser::DEFAULT -calls-> src/lib.rs:Parser::string',
      'src/lib.rs:get -calls-> src/lib.rs:Parser::string',
      'src/lib.rs:get -calls-> src/lib.rs:size',
    ]);
    // Phase A's refs, for name matching, come from the same callers.
    expect(r.refs.get('src/lib.rs')?.filter((x) => x.startsWith('calls '))).toEqual([
      'calls Parser::string',
      'calls Parser::string',
      'calls Parser::string',
      'calls size',
    ]);
  });

  it('resolves across the crates of a workspace through path dependencies, renamed ones too', async () => {
    const r = await analyzeProject({
      'Cargo.toml': '[workspace]\nmembers = ["core", "app"]\n[workspace.dependencies]\nshop-core = { path = "core" }\n',
      'core/Cargo.toml': manifest('shop-core'),
      'core/src/lib.rs': 'pub mod money { pub fn add(a: u32, b: u32) -> u32 { a + b } }\npub use money::add;\n',
      'app/Cargo.toml': manifest(
        'app',
        '[dependencies]\nshop-core = { workspace = true }\nmoney = { path = "../core", package = "shop-core" }\nserde = "1"\n',
      ),
      'app/src/main.rs': 'use shop_core::money;\nfn main() { money::add(1, 2); shop_core::add(3, 4); ::money::add(5, 6); serde::x(); }\n',
    });
    expect(calls(r)).toEqual(['app/src/main.rs:main -calls-> core/src/lib.rs:money::add']);
  });

  it('resolves calls from integration tests, examples and bins to the package lib', async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('tool-kit'),
      'src/lib.rs': 'pub fn api() {}\n',
      'src/main.rs': 'fn main() { tool_kit::api(); }\n',
      'tests/it.rs': '#[test]\nfn works() { tool_kit::api(); }\n',
      'examples/demo.rs': 'use tool_kit::api;\nfn main() { api(); }\n',
    });
    expect(calls(r)).toEqual([
      'examples/demo.rs:main -calls-> src/lib.rs:api',
      'src/main.rs:main -calls-> src/lib.rs:api',
      'tests/it.rs:works -calls-> src/lib.rs:api',
    ]);
  });
});

describe('impls and methods', () => {
  const lib = [
    'use std::rc::Rc;',
    'use std::sync::Arc;',
    'pub struct Inner;',
    'impl Inner { pub fn poll(&self) -> Result<Token, ()> { Ok(Token) } pub fn new() -> Inner { Inner } }',
    'pub struct Token;',
    'impl Token { pub fn text(&self) -> &str { "" } }',
    'pub struct Conn { inner: Inner, boxed: Box<Inner>, shared: Rc<Inner>, list: Vec<Token>, maybe: Option<Arc<Inner>> }',
    'pub trait Read { fn read(&self) -> usize; fn read_twice(&self) -> usize { self.read() + self.read() } }',
    'impl Read for Conn { fn read(&self) -> usize { 0 } }',
    'impl Conn {',
    '    pub fn new() -> Self { Self::build() }',
    '    fn build() -> Conn { Conn { inner: Inner::new(), boxed: Box::new(Inner), shared: Rc::new(Inner), list: vec![], maybe: None } }',
    '    pub fn go(&self) -> Result<(), ()> {',
    '        self.inner.poll()?.text();',
    '        self.boxed.poll();',
    '        self.shared.poll();',
    '        self.list[0].text();',
    '        for t in &self.list { t.text(); }',
    '        self.list.iter().map(|t| t.text()).count();',
    '        if let Some(i) = &self.maybe { i.poll(); }',
    '        let x: Inner = Inner::new();',
    '        x.poll();',
    '        let y = Conn::new();',
    '        y.read_twice();',
    '        Ok(())',
    '    }',
    '}',
    'pub fn generic<R: Read>(r: &R, d: &dyn Read, i: impl Read) -> usize { r.read() + d.read() + i.read() + R::read_twice(r) + <Conn as Read>::read(&Conn::new()) }',
    'pub fn unknown(x: SomethingElse, f: impl Fn()) { x.poll(); f(); }',
    '',
  ].join('\n');

  it('types receivers by declarations, constructors, returns, fields, ?, auto-deref, indexing, iteration and patterns', async () => {
    const r = await analyzeProject({ 'Cargo.toml': manifest('net'), 'src/lib.rs': lib });
    const go = calls(r).filter((e) => e.startsWith('src/lib.rs:Conn::go '));
    expect(go).toEqual([
      'src/lib.rs:Conn::go -calls-> src/lib.rs:Conn::new',
      'src/lib.rs:Conn::go -calls-> src/lib.rs:Inner::new',
      'src/lib.rs:Conn::go -calls-> src/lib.rs:Inner::poll',
      'src/lib.rs:Conn::go -calls-> src/lib.rs:Read::read_twice',
      'src/lib.rs:Conn::go -calls-> src/lib.rs:Token::text',
    ]);
    expect(calls(r)).toContain('src/lib.rs:Conn::new -calls-> src/lib.rs:Conn::build');
  });

  it('sends trait method calls to the trait item, with implements edges from each impl', async () => {
    const r = await analyzeProject({ 'Cargo.toml': manifest('net'), 'src/lib.rs': lib });
    expect(calls(r).filter((e) => e.startsWith('src/lib.rs:generic '))).toEqual([
      'src/lib.rs:generic -calls-> src/lib.rs:Conn::new',
      'src/lib.rs:generic -calls-> src/lib.rs:Read::read',
      'src/lib.rs:generic -calls-> src/lib.rs:Read::read_twice',
    ]);
    expect(calls(r)).toContain('src/lib.rs:Read::read_twice -calls-> src/lib.rs:Read::read');
    expect(r.edges).toContain('src/lib.rs:<Conn as Read>::read -implements-> src/lib.rs:Read::read');
    expect(r.edges).toContain('src/lib.rs:Conn -implements-> src/lib.rs:Read');
  });

  it('never guesses: an unknown receiver type or a closure parameter gives no edge', async () => {
    const r = await analyzeProject({ 'Cargo.toml': manifest('net'), 'src/lib.rs': lib });
    expect(calls(r).filter((e) => e.startsWith('src/lib.rs:unknown '))).toEqual([]);
    expect(r.logs.join('\n')).toMatch(/call sites: \d+ resolved in the repository, \d+ outside it, \d+ unknown/);
  });

  it('reads calls inside macro arguments, and chooses the cfg twin a default build compiles', async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('twins', '[features]\ndefault = ["fast"]\nfast = []\n'),
      'src/lib.rs': [
        '#[cfg(feature = "fast")]',
        'mod imp { pub fn speed() -> u32 { 1 } }',
        '#[cfg(not(feature = "fast"))]',
        'mod imp { pub fn speed() -> u32 { 0 } }',
        'pub struct S;',
        'impl S { pub fn name(&self) -> String { String::new() } }',
        'pub fn show(s: &S) { println!("{} {}", s.name(), imp::speed()); assert!(check(s)); }',
        'fn check(_s: &S) -> bool { true }',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual([
      'src/lib.rs:show -calls-> src/lib.rs:S::name',
      'src/lib.rs:show -calls-> src/lib.rs:check',
      'src/lib.rs:show -calls-> src/lib.rs:imp::speed',
    ]);
  });

  it('records type references of signatures and supertraits', async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('types'),
      'src/lib.rs':
        'pub struct A;\npub struct B { a: A }\npub trait Base {}\npub trait Sub: Base {}\npub fn f(b: &B) -> Option<A> { None }\n',
    });
    expect(r.edges).toEqual(
      expect.arrayContaining([
        'src/lib.rs:B -types-> src/lib.rs:A',
        'src/lib.rs:Sub -inherits-> src/lib.rs:Base',
        'src/lib.rs:f -types-> src/lib.rs:A',
        'src/lib.rs:f -types-> src/lib.rs:B',
      ]),
    );
  });
});

describe('macros and associated types', () => {
  it('reads the items a macro_rules! of the file writes, and items written inside other macros', async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('macros'),
      'src/lib.rs': [
        'macro_rules! flag {',
        '    ($bit:expr, $is:ident, $set:ident) => {',
        '        pub fn $is(&self) -> bool { self.bits & (1 << $bit) != 0 }',
        '        pub fn $set(&mut self) { self.bits |= 1 << $bit; helper(); }',
        '    };',
        '}',
        'fn helper() {}',
        'pub struct Info { bits: u8 }',
        'impl Info {',
        '    flag!(0, is_utf8, set_utf8);',
        '    pub fn check(&mut self) -> bool { self.set_utf8(); self.is_utf8() }',
        '}',
        'template! {',
        '    pub trait Walk { fn walk(&self) -> usize; }',
        '}',
        'pub fn go<W: Walk>(w: &W) -> usize { w.walk() }',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual([
      'src/lib.rs:Info::check -calls-> src/lib.rs:Info::is_utf8',
      'src/lib.rs:Info::check -calls-> src/lib.rs:Info::set_utf8',
      'src/lib.rs:Info::set_utf8 -calls-> src/lib.rs:helper',
      'src/lib.rs:go -calls-> src/lib.rs:Walk::walk',
    ]);
  });

  it('follows associated types, iterators of the program and a macro that unwraps a Result', async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('assoc'),
      'src/lib.rs': [
        'macro_rules! tri { ($e:expr) => { match $e { Ok(v) => v, Err(e) => return Err(e) } }; }',
        'pub struct Node;',
        'impl Node { pub fn id(&self) -> u32 { 0 } }',
        'pub trait Graph { type Nodes: Iterator<Item = Self::N>; type N; fn nodes(&self) -> Self::Nodes; }',
        'pub struct Nodes;',
        'impl Iterator for Nodes { type Item = Node; fn next(&mut self) -> Option<Node> { None } }',
        'pub struct G;',
        'impl Graph for G { type Nodes = Nodes; type N = Node; fn nodes(&self) -> Nodes { Nodes } }',
        'fn load() -> Result<Node, ()> { Ok(Node) }',
        'pub fn count(g: &G) -> Result<u32, ()> {',
        '    let first = tri!(load());',
        '    first.id();',
        '    for n in g.nodes() { n.id(); }',
        '    g.nodes().filter(|n| n.id() > 0).count();',
        '    Ok(0)',
        '}',
        'pub fn generic<T: Graph<N = Node>>(g: &T) { g.nodes(); }',
        '',
      ].join('\n'),
    });
    expect(calls(r).filter((e) => e.startsWith('src/lib.rs:count '))).toEqual([
      'src/lib.rs:count -calls-> src/lib.rs:Graph::nodes',
      'src/lib.rs:count -calls-> src/lib.rs:Node::id',
      'src/lib.rs:count -calls-> src/lib.rs:load',
    ]);
  });
});

describe('blanket impls', () => {
  it('applies a blanket impl only to types that meet its bounds', async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('blanket'),
      'src/lib.rs': [
        'pub trait Walk { fn walk(&self); }',
        'pub trait Ext { fn twice(&self); fn size(&self) -> usize; }',
        'impl<T: Walk> Ext for T { fn twice(&self) { self.walk(); self.walk(); } fn size(&self) -> usize { 0 } }',
        'pub struct Dog;',
        'impl Walk for Dog { fn walk(&self) {} }',
        'pub struct Stone;',
        'impl Stone { pub fn weight(&self) -> u32 { 1 } }',
        'pub fn go(d: Dog, s: Stone) { d.twice(); s.size(); s.weight(); }',
        '',
      ].join('\n'),
    });
    expect(calls(r).filter((e) => e.startsWith('src/lib.rs:go '))).toEqual([
      'src/lib.rs:go -calls-> src/lib.rs:Ext::twice',
      'src/lib.rs:go -calls-> src/lib.rs:Stone::weight',
    ]);
  });

  it('applies a blanket impl over a trait from outside the program to the types and parameters that have it', async () => {
    // futures-util: `impl<T: ?Sized> StreamExt for T where T: Stream {}`, `St: Stream` → `st.fuse()`.
    const r = await analyzeProject({
      'Cargo.toml': manifest('ext', '[dependencies]\nrayon = "1"\nfutures-core = "0.3"\nrand_core = "0.6"\n'),
      'src/lib.rs': [
        'use futures_core::stream::Stream;',
        'use std::fmt;',
        'pub trait StreamExt: Stream { fn fuse(self) -> Fuse<Self> where Self: Sized { Fuse(self) } fn next_unpin(&mut self) {} }',
        'impl<T: ?Sized> StreamExt for T where T: Stream {}',
        'pub trait WriteExt { fn put(&mut self); }',
        'impl<W: fmt::Write> WriteExt for W { fn put(&mut self) {} }',
        'pub struct Fuse<S>(S);',
        'pub struct Queue;',
        'impl Stream for Queue { type Item = u8; }',
        'pub struct Plain;',
        'impl Plain { pub fn fuse(self) {} }',
        'pub fn zip<St1: Stream>(a: St1, mut q: Queue) { a.fuse(); q.next_unpin(); Plain.fuse(); }',
        'pub fn where_clause<St2>(b: St2) where St2: Stream + Unpin { b.fuse(); }',
        'pub fn write_io<W: std::io::Write>(w: &mut W) { w.put(); }',
        'pub fn write_fmt<F: fmt::Write>(f: &mut F) { f.put(); }',
        'pub fn no_bound<T>(t: T) { t.fuse(); }',
        // A parameter's own bound comes first (`io::Write::flush`), and a bound not known may have the method.
        'pub trait IoExt { fn flush(&mut self) {} fn put_all(&mut self) {} }',
        'impl<W: std::io::Write + ?Sized> IoExt for W {}',
        'pub fn flushes<W: std::io::Write>(w: &mut W) { w.flush(); w.put_all(); }',
        'pub trait ParExt { fn go_par(&self) {} }',
        'impl<T: rayon::iter::ParallelIterator> ParExt for T {}',
        'pub fn par<P: rayon::iter::ParallelIterator>(p: P) { p.go_par(); }',
        // An outside trait named through the crate's own re-export (rand: `use crate::RngCore`).
        'pub use rand_core::RngCore;',
        'pub mod rngs { use crate::RngCore; pub struct ThreadRng; impl RngCore for ThreadRng { fn next_u32(&mut self) -> u32 { 0 } } }',
        'pub mod rng { use rand_core::RngCore; pub trait Rng: RngCore { fn gen(&mut self) {} } impl<R: RngCore + ?Sized> Rng for R {} }',
        'pub fn random(mut r: rngs::ThreadRng) { use rng::Rng; r.gen(); }',
        '',
      ].join('\n'),
    });
    expect(calls(r).filter((e) => !e.includes('-> src/lib.rs:Fuse'))).toEqual([
      'src/lib.rs:flushes -calls-> src/lib.rs:IoExt::put_all',
      'src/lib.rs:random -calls-> src/lib.rs:rng::Rng::gen',
      'src/lib.rs:where_clause -calls-> src/lib.rs:StreamExt::fuse',
      'src/lib.rs:write_fmt -calls-> src/lib.rs:WriteExt::put',
      'src/lib.rs:zip -calls-> src/lib.rs:Plain::fuse',
      'src/lib.rs:zip -calls-> src/lib.rs:StreamExt::fuse',
      'src/lib.rs:zip -calls-> src/lib.rs:StreamExt::next_unpin',
    ]);
  });

  it("reads Self in a blanket impl as what it implements too, and of a trait's cfg twin members the compiled one", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('selfy'),
      'src/lib.rs': [
        'pub trait FromFd { fn from_fd(n: i32) -> Self; }',
        'pub trait FromFilelike: Sized { fn from_filelike(n: i32) -> Self; fn from_into(n: i32) -> Self; }',
        'impl<T: FromFd> FromFilelike for T {',
        '    fn from_filelike(n: i32) -> Self { Self::from_fd(n) }',
        '    fn from_into(n: i32) -> Self { Self::from_filelike(n + 1) }',
        '}',
        'pub trait Visit {',
        '    #[cfg(not(test))]',
        '    fn visit(&mut self, v: u64) { let _ = v; }',
        '    #[cfg(test)]',
        '    fn visit(&mut self, v: u64);',
        '}',
        'pub fn run<V: Visit>(v: &mut V) { v.visit(1); }',
        '',
      ].join('\n'),
    });
    expect(calls(r).filter((e) => !e.includes('FromFd>::from_fd'))).toEqual([
      'src/lib.rs:<T as FromFilelike>::from_filelike -calls-> src/lib.rs:FromFd::from_fd',
      'src/lib.rs:<T as FromFilelike>::from_into -calls-> src/lib.rs:FromFilelike::from_filelike',
      'src/lib.rs:run -calls-> src/lib.rs:Visit::visit',
    ]);
  });
});

describe('what real crates do (found on crates the issue does not name)', () => {
  it("bounds a parameter's associated type by the function's where clause (<T as InputIter>::Item: AsChar, I::Item: Trait)", async () => {
    // nom: `T: InputIter, <T as InputIter>::Item: AsChar` then `c.as_char()` for an item of the input.
    const r = await analyzeProject({
      'Cargo.toml': manifest('assoc'),
      'src/lib.rs': [
        'pub trait AsChar { fn as_char(self) -> char; }',
        'pub trait InputIter { type Item; type Iter: Iterator<Item = Self::Item>; fn iter_elements(&self) -> Self::Iter; fn first(&self) -> Option<Self::Item>; }',
        'pub fn anychar<T>(input: T) -> Option<char> where T: InputIter, <T as InputIter>::Item: AsChar {',
        '    let c = input.first()?;',
        '    Some(c.as_char())',
        '}',
        'pub fn each<T>(input: T) where T: InputIter, T::Item: AsChar { for c in input.iter_elements() { c.as_char(); } }',
        'pub trait Shape { fn area(&self) -> u32; }',
        'pub fn areas<I>(shapes: I) -> u32 where I: Iterator, I::Item: Shape { shapes.map(|s| s.area()).sum() }',
        'pub fn plain<T: InputIter>(input: T) { let _ = input.first().map(|c| c.as_char()); }',
        // With the trait's own bounds on it; two traits' `Item`s bounded apart cannot be told from each other.
        'pub trait Named { fn name(&self) -> u8; }',
        'pub trait Tr { type Item: Named; fn get(&self) -> Self::Item; }',
        'pub fn both<T: Tr>(t: T) where T::Item: AsChar { t.get().name(); t.get().as_char(); }',
        'pub trait A { type Item; fn a(&self) -> Self::Item; }',
        'pub trait B { type Item; }',
        'pub trait X { fn go(&self); }',
        'pub trait Y { fn go(&self); }',
        'pub fn two<T: A + B>(t: T) where <T as A>::Item: X, <T as B>::Item: Y { t.a().go(); let v: <T as A>::Item = t.a(); v.go(); }',
        // Written as a type (`T::Item`), and an impl's where clause seen again for its method.
        'pub fn written<T: Tr>(t: T) where T::Item: AsChar { let x: T::Item = t.get(); x.name(); x.as_char(); }',
        'pub struct P<I>(I);',
        'impl<I: InputIter> P<I> where I::Item: AsChar { pub fn go<M: Clone>(&self, _m: M) { self.0.first().unwrap().as_char(); } }',
        // crypto-common: a blanket impl's where clause on `T::Inner`, read for `T::Inner::new(k)`.
        'pub trait KeyInit { fn new(k: u8) -> Self; }',
        'pub trait InnerInit { type Inner; fn inner_init(i: Self::Inner) -> Self; }',
        'pub trait KeyIvInit { fn new(k: u8) -> Self; }',
        'impl<T> KeyIvInit for T where T: InnerInit, T::Inner: KeyInit { fn new(k: u8) -> Self { Self::inner_init(T::Inner::new(k)) } }',
        'pub trait Run<I> { fn run<M: Clone>(&self, i: I, m: M); }',
        'pub struct Q;',
        'impl<I: InputIter> Run<I> for Q where I::Item: AsChar { fn run<M: Clone>(&self, i: I, _m: M) { i.first().unwrap().as_char(); } }',
        '',
      ].join('\n'),
    });
    expect(calls(r).filter((e) => !e.includes('InputIter::'))).toEqual([
      'src/lib.rs:<Q as Run>::run -calls-> src/lib.rs:AsChar::as_char',
      'src/lib.rs:<T as KeyIvInit>::new -calls-> src/lib.rs:InnerInit::inner_init',
      'src/lib.rs:<T as KeyIvInit>::new -calls-> src/lib.rs:KeyInit::new',
      'src/lib.rs:P::go -calls-> src/lib.rs:AsChar::as_char',
      'src/lib.rs:anychar -calls-> src/lib.rs:AsChar::as_char',
      'src/lib.rs:areas -calls-> src/lib.rs:Shape::area',
      'src/lib.rs:both -calls-> src/lib.rs:AsChar::as_char',
      'src/lib.rs:both -calls-> src/lib.rs:Named::name',
      'src/lib.rs:both -calls-> src/lib.rs:Tr::get',
      'src/lib.rs:each -calls-> src/lib.rs:AsChar::as_char',
      'src/lib.rs:two -calls-> src/lib.rs:A::a',
      'src/lib.rs:two -calls-> src/lib.rs:X::go',
      'src/lib.rs:written -calls-> src/lib.rs:AsChar::as_char',
      'src/lib.rs:written -calls-> src/lib.rs:Named::name',
      'src/lib.rs:written -calls-> src/lib.rs:Tr::get',
    ]);
    expect(r.logs.join('\n')).toMatch(/30 call sites: 22 resolved in the repository, 8 outside it, 0 unknown/);
  });

  it('types what a call of a closure bound by Fn* or of a fn pointer returns', async () => {
    // combine: `(self.0)().parse_stream(input)` with `P: FnMut() -> R, R: Parser`;
    // anyhow: `(vtable(e).object_downcast)(e, id)` with a field `unsafe fn(&Impl, u64) -> Option<Ref>`.
    const r = await analyzeProject({
      'Cargo.toml': manifest('callables'),
      'src/lib.rs': [
        'pub trait Parser { fn parse_stream(&mut self); }',
        'pub struct Lazy<P>(P);',
        'impl<P, R> Lazy<P> where P: FnMut() -> R, R: Parser {',
        '    pub fn run(&mut self) { (self.0)().parse_stream(); }',
        '}',
        'pub struct Ref;',
        'impl Ref { pub fn extend(self) {} }',
        'pub struct VTable { object_downcast: unsafe fn(u64) -> Option<Ref>, drop: fn() }',
        "fn vtable(_e: u64) -> &'static VTable { todo!() }",
        'pub fn downcast(e: u64) {',
        '    if let Some(addr) = unsafe { (vtable(e).object_downcast)(e) } { addr.extend(); }',
        '    (vtable(e).drop)();',
        '}',
        'pub fn with<F: Fn(u8) -> Ref>(f: F, g: impl FnOnce() -> Ref) { f(1).extend(); g().extend(); }',
        // A closure type a blanket impl also answers (nom, combine: `impl<F: FnMut(&str) -> Out> Parser for F`).
        'pub trait Step { fn step(&mut self); }',
        'impl<F: FnMut(&str) -> Ref> Step for F { fn step(&mut self) { self("x").extend(); } }',
        'pub fn stepper<F: FnMut(&str) -> Ref>(mut f: F) { f("y").extend(); f.step(); }',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual([
      'src/lib.rs:Lazy::run -calls-> src/lib.rs:Parser::parse_stream',
      'src/lib.rs:downcast -calls-> src/lib.rs:Ref::extend',
      'src/lib.rs:downcast -calls-> src/lib.rs:vtable',
      'src/lib.rs:stepper -calls-> src/lib.rs:Ref::extend',
      'src/lib.rs:stepper -calls-> src/lib.rs:Step::step',
      'src/lib.rs:with -calls-> src/lib.rs:Ref::extend',
    ]);
  });

  it("reads a field through the program's Deref impl when the type has none of the name", async () => {
    // h2: `stream: &mut store::Ptr` derefs to a `Stream`: `stream.state.is_closed()`.
    const r = await analyzeProject({
      'Cargo.toml': manifest('derefs'),
      'src/lib.rs': [
        'use std::ops;',
        'pub struct State;',
        'impl State { pub fn is_closed(&self) -> bool { false } }',
        'pub struct Stream { pub state: State, pub id: u32 }',
        "pub struct Ptr<'a> { store: &'a mut Vec<Stream>, id: u32 }",
        "impl<'a> ops::Deref for Ptr<'a> { type Target = Stream; fn deref(&self) -> &Stream { &self.store[0] } }",
        'pub struct Id;',
        'impl Id { pub fn is_closed(&self) -> bool { true } }',
        "pub fn send(stream: &mut Ptr<'_>) -> bool { stream.state.is_closed() }",
        // A private field is not seen from another module: auto-deref goes on to the target's.
        'pub mod guard {',
        '    pub struct Guard { inner: super::Data }',
        '    impl std::ops::Deref for Guard { type Target = super::Data; fn deref(&self) -> &super::Data { &self.inner } }',
        '    impl Guard { pub fn mine(&self) { self.inner.go(); } }',
        '}',
        'pub struct Data { pub inner: Inner }',
        'impl Data { pub fn go(&self) {} }',
        'pub struct Inner;',
        'impl Inner { pub fn go(&self) {} }',
        'pub fn outside(g: guard::Guard) { g.inner.go(); }',
        // The `Item` of a program trait's impl does not make a type an iterator: `first()` is its `Deref` target's.
        'pub trait Parser { type Item; }',
        'pub struct Baz;',
        'impl Baz { pub fn m(&self) {} }',
        'pub struct Bar;',
        'impl Bar { pub fn m(&self) {} }',
        'pub struct Foo { v: Vec<Baz> }',
        'impl Parser for Foo { type Item = Bar; }',
        'impl std::ops::Deref for Foo { type Target = Vec<Baz>; fn deref(&self) -> &Vec<Baz> { &self.v } }',
        'pub fn items(foo: &Foo) { foo.first().unwrap().m(); }',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual([
      'src/lib.rs:guard::Guard::mine -calls-> src/lib.rs:Data::go',
      'src/lib.rs:items -calls-> src/lib.rs:Baz::m',
      'src/lib.rs:outside -calls-> src/lib.rs:Inner::go',
      'src/lib.rs:send -calls-> src/lib.rs:State::is_closed',
    ]);
  });

  it("types a map's entries, keys and values, the places of pattern elements, std enums' one-value variants and thread_local! keys", async () => {
    // dashmap: `if let Some((kptr, vptr)) = shard.get_key_value(key) { vptr.get() }`.
    const r = await analyzeProject({
      'Cargo.toml': manifest('maps', '[dependencies]\nindexmap = "1"\n'),
      'src/lib.rs': [
        'use std::collections::{BTreeMap, HashMap};',
        'pub struct Shared<V>(V);',
        'impl<V> Shared<V> { pub fn get(&self) -> &V { &self.0 } }',
        'pub struct Key;',
        'impl Key { pub fn name(&self) -> u8 { 0 } }',
        'type Map<V> = HashMap<Key, Shared<V>>;',
        'pub fn entries<V>(m: &mut Map<V>, k: &Key, t: BTreeMap<Key, Shared<V>>) {',
        '    if let Some((key, v)) = m.get_key_value(k) { key.name(); v.get(); }',
        '    for (key, v) in m.iter() { key.name(); v.get(); }',
        '    for (_, v) in &t { v.get(); }',
        '    m.remove(k).unwrap().get();',
        '    let _ = m.values().map(|v| v.get());',
        '    let _ = t.keys().map(|k| k.name());',
        '}',
        // `_` (an anonymous token) holds its place; after `..` places count from the end.
        'pub enum E { Pair(Key, Shared<u8>), Triple(Key, Key, Shared<u8>) }',
        'impl Key { pub fn get(&self) {} }',
        'pub fn places(e: E, t: (Key, Key, Shared<u8>)) {',
        '    match e { E::Pair(_, s) => { s.get(); } E::Triple(k, .., s) => { k.name(); s.get(); } }',
        '    let (_, .., last) = t;',
        '    last.get();',
        '}',
        // std enums holding one value: `Poll::Ready(v)`, `Bound::Included(x)` (quickcheck's shrink).
        // A comment holds no place; an IndexMap's pop gives an entry.
        'pub fn commented(e: E, m: indexmap::IndexMap<Key, Shared<u8>>) {',
        '    match e { E::Pair(/* first */ k, s) => { k.name(); s.get(); } _ => {} }',
        '    m.pop().unwrap().0.name();',
        '}',
        // tracing-core: `thread_local! { static CURRENT_STATE: State = … }` and `CURRENT_STATE.try_with(|state| …)`.
        'thread_local! { static CURRENT: Key = Key; }',
        'pub fn current() { CURRENT.with(|k| k.name()); let _ = CURRENT.try_with(|k| k.get()); }',
        'pub fn polls(p: std::task::Poll<Option<Key>>, b: std::ops::Bound<Key>) {',
        '    if let std::task::Poll::Ready(Some(k)) = p { k.name(); }',
        '    match b { std::ops::Bound::Included(ref k) | std::ops::Bound::Excluded(ref k) => { k.name(); } _ => {} }',
        '}',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual([
      'src/lib.rs:commented -calls-> src/lib.rs:Key::name',
      'src/lib.rs:commented -calls-> src/lib.rs:Shared::get',
      'src/lib.rs:current -calls-> src/lib.rs:Key::get',
      'src/lib.rs:current -calls-> src/lib.rs:Key::name',
      'src/lib.rs:entries -calls-> src/lib.rs:Key::name',
      'src/lib.rs:entries -calls-> src/lib.rs:Shared::get',
      'src/lib.rs:places -calls-> src/lib.rs:Key::name',
      'src/lib.rs:places -calls-> src/lib.rs:Shared::get',
      'src/lib.rs:polls -calls-> src/lib.rs:Key::name',
    ]);
    expect(r.logs.join('\n')).toMatch(/31 call sites: 19 resolved in the repository/);
  });

  it("reads a body's glob use of an enum's variants, IntoIterator for &T as no iterator, and .0 of std's newtypes", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('globs'),
      'src/lib.rs': [
        'use std::num::Wrapping;',
        'use std::ops::Deref;',
        'pub struct Candidate;',
        // globset: `use self::Strategy::*;` in a method, then bare variants in its patterns.
        'enum Strategy { Literal(LiteralStrategy), Prefix(PrefixStrategy) }',
        'impl Strategy {',
        '    fn is_match(&self, c: &Candidate) -> bool {',
        '        use self::Strategy::*;',
        '        match *self { Literal(ref s) => s.is_match(c), Prefix(ref s) => s.is_match(c) }',
        '    }',
        '}',
        'struct LiteralStrategy; impl LiteralStrategy { fn is_match(&self, _c: &Candidate) -> bool { true } }',
        'struct PrefixStrategy; impl PrefixStrategy { fn is_match(&self, _c: &Candidate) -> bool { true } }',
        // camino: the `Item` of `impl IntoIterator for &PathBuf` does not make a `PathBuf` an iterator.
        'pub struct PathBuf(String);',
        'impl Deref for PathBuf { type Target = Path; fn deref(&self) -> &Path { todo!() } }',
        'pub struct Path(str);',
        'impl Path { pub fn as_str(&self) -> &str { &self.0 } }',
        "impl<'a> IntoIterator for &'a PathBuf { type Item = &'a str; type IntoIter = std::vec::IntoIter<&'a str>; fn into_iter(self) -> Self::IntoIter { todo!() } }",
        'impl AsRef<str> for PathBuf { fn as_ref(&self) -> &str { self.as_str() } }',
        // …but `into_iter()` of it is an iterator of that `Item` (cc's `VsInstances`), and so is
        // a type whose impl of another outside trait declares one (hashbrown's rayon `ParallelIterator`).
        'pub struct Instances;',
        'pub struct Instance;',
        'impl Instance { pub fn path(&self) -> u8 { 0 } }',
        '#[allow(bare_trait_objects)]',
        'impl IntoIterator for Instances { type Item = Instance; type IntoIter = Box<Iterator<Item = Self::Item>>; fn into_iter(self) -> Self::IntoIter { todo!() } }',
        'pub struct Par;',
        'impl rayon::iter::ParallelIterator for Par { type Item = Instance; fn drive_unindexed<C>(self, c: C) -> C::Result { todo!() } }',
        'pub fn instances(all: Instances) { let _ = all.into_iter().filter_map(|i| Some(i.path())); }',
        'pub fn par_instances(par: Par) { let _ = par.map(|i| i.path()); }',
        // A method of an impl of an outside trait gives what the impl declares (walkdir's `into_iter()`, `next()`).
        'pub struct Walk;',
        'pub struct WalkIter;',
        'impl WalkIter { pub fn skip_current_dir(&mut self) {} }',
        'impl Iterator for WalkIter { type Item = Result<Instance, ()>; fn next(&mut self) -> Option<Self::Item> { None } }',
        'impl IntoIterator for Walk { type Item = Result<Instance, ()>; type IntoIter = WalkIter; fn into_iter(self) -> WalkIter { WalkIter } }',
        'pub fn walk(w: Walk) { let mut it = w.into_iter(); while let Some(r) = it.next() { r.unwrap().path(); it.skip_current_dir(); } }',
        // num-traits: `impl<T: Zero> Zero for Wrapping<T> { fn is_zero(&self) -> bool { self.0.is_zero() } }`.
        'pub trait Zero { fn is_zero(&self) -> bool; }',
        'impl<T: Zero> Zero for Wrapping<T> { fn is_zero(&self) -> bool { self.0.is_zero() } }',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual([
      'src/lib.rs:<PathBuf as AsRef>::as_ref -calls-> src/lib.rs:Path::as_str',
      'src/lib.rs:<Wrapping as Zero>::is_zero -calls-> src/lib.rs:Zero::is_zero',
      'src/lib.rs:Strategy::is_match -calls-> src/lib.rs:LiteralStrategy::is_match',
      'src/lib.rs:Strategy::is_match -calls-> src/lib.rs:PrefixStrategy::is_match',
      'src/lib.rs:instances -calls-> src/lib.rs:Instance::path',
      'src/lib.rs:par_instances -calls-> src/lib.rs:Instance::path',
      'src/lib.rs:walk -calls-> src/lib.rs:Instance::path',
      'src/lib.rs:walk -calls-> src/lib.rs:WalkIter::skip_current_dir',
    ]);
  });

  it("types pin-project's projections (pin_project! and #[pin_project]) and Pin's own methods", async () => {
    // futures-util, tokio-util: `let this = self.project(); this.stream.is_done()`.
    const r = await analyzeProject({
      'Cargo.toml': manifest('pins'),
      'src/lib.rs': [
        'use core::pin::Pin;',
        'use pin_project_lite::pin_project;',
        'pub struct Fuse<S> { s: S, done: bool }',
        'impl<S> Fuse<S> {',
        '    pub fn is_done(&self) -> bool { self.done }',
        '    pub fn get_mut(&mut self) -> &mut S { &mut self.s }',
        '}',
        'pub struct Queue;',
        'impl Queue { pub fn len(&self) -> usize { 0 } pub fn push(&mut self, _x: u8) {} }',
        'pin_project! {',
        '    /// Buffered.',
        '    #[must_use]',
        '    pub struct Buffered<St> where St: Clone {',
        '        #[pin]',
        '        stream: Fuse<St>,',
        '        queue: Queue,',
        '    }',
        '}',
        'impl<St: Clone> Buffered<St> {',
        '    pub fn poll(self: Pin<&mut Self>) {',
        '        let mut this = self.project();',
        '        if this.stream.is_done() { this.queue.push(1); }',
        '        let _ = this.queue.len();',
        '        this.stream.as_mut().get_mut();',
        '    }',
        '    pub fn peek(self: Pin<&Self>) -> usize { self.project_ref().queue.len() }',
        '    pub fn inner(self: Pin<&mut Self>) { self.get_mut(); }',
        '    pub fn get_mut(&mut self) {}',
        '}',
        '#[pin_project::pin_project]',
        'pub struct Other { #[pin] f: Fuse<u8>, q: Queue }',
        'impl Other { fn go(self: Pin<&mut Self>) { self.project().f.is_done(); } }',
        '#[pin_project::pin_project]',
        'pub struct Tuple(#[pin] Fuse<u8>, Queue);',
        'impl Tuple { fn go(self: Pin<&mut Self>) { let p = self.project(); p.0.as_mut(); p.1.len(); } }',
        // `p.get_mut()` is `Fuse`'s on a `Pin<Box<…>>` and `Pin`'s on a `Pin<&mut Box<…>>`, which look alike here: no edge.
        'pub fn boxed(mut p: Pin<Box<Fuse<u8>>>) { p.get_mut(); p.as_mut().is_done(); }',
        'pub struct Plain { q: Queue }',
        'impl Plain { fn go(self: Pin<&mut Self>) { let p = self.project(); p.q.len(); } }',
        '',
      ].join('\n'),
    });
    expect(r.failed).toEqual([]);
    expect(calls(r)).toEqual([
      'src/lib.rs:Buffered::peek -calls-> src/lib.rs:Queue::len',
      'src/lib.rs:Buffered::poll -calls-> src/lib.rs:Fuse::is_done',
      'src/lib.rs:Buffered::poll -calls-> src/lib.rs:Queue::len',
      'src/lib.rs:Buffered::poll -calls-> src/lib.rs:Queue::push',
      'src/lib.rs:Other::go -calls-> src/lib.rs:Fuse::is_done',
      'src/lib.rs:Tuple::go -calls-> src/lib.rs:Queue::len',
      'src/lib.rs:boxed -calls-> src/lib.rs:Fuse::is_done',
    ]);
  });

  it('reads a file whose first token is an inner attribute followed on its line by more (not a shebang)', async () => {
    // regex-automata's lib.rs: the grammar took the line as a shebang, `/*!` with it, and the doc as code.
    const r = await analyzeProject({
      'Cargo.toml': manifest('automata', '[features]\ndefault = ["std"]\nstd = []\n'),
      'src/lib.rs': [
        '/*!',
        'A crate.',
        '*/#![cfg_attr(feature = "std", doc = "```")] #![cfg_attr(not(feature = "std"), doc = "```ignore")]/*!',
        'let re = Regex::new("[0-9]").unwrap();',
        '```',
        'More words, some (unbalanced.',
        '*/',
        'mod dense;',
        'pub fn run() { dense::Dfa::new().step(); }',
        '',
      ].join('\n'),
      'src/dense.rs': 'pub struct Dfa;\nimpl Dfa {\n    pub fn new() -> Dfa { Dfa }\n    pub fn step(&self) {}\n}\n',
    });
    expect(r.failed).toEqual([]);
    expect(r.diagnostics.get('src/lib.rs')?.map((d) => d.code)).not.toContain('PARSE_ERRORS');
    expect(calls(r)).toEqual(['src/lib.rs:run -calls-> src/dense.rs:Dfa::new', 'src/lib.rs:run -calls-> src/dense.rs:Dfa::step']);
  });

  it('reads the module tree and items cfg_if! declares, each branch under its cfg', async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('cfgif', '[features]\ndefault = ["std"]\nstd = []\n'),
      'src/lib.rs': [
        'use cfg_if::cfg_if;',
        'cfg_if! {',
        '    if #[cfg(feature = "std")] {',
        '        mod channel;',
        '        pub use crate::channel::send;',
        '        fn imp() -> u8 { 1 }',
        '    } else if #[cfg(feature = "tiny")] {',
        '        fn imp() -> u8 { 2 }',
        '    } else {',
        '        fn imp() -> u8 { 3 }',
        '    }',
        '}',
        'pub fn go() -> u8 { send(); imp() }',
        '',
      ].join('\n'),
      'src/channel.rs': 'pub fn send() {}\n',
    });
    expect(calls(r).filter((e) => e.startsWith('src/lib.rs:go '))).toEqual([
      'src/lib.rs:go -calls-> src/channel.rs:send',
      'src/lib.rs:go -calls-> src/lib.rs:imp',
    ]);
  });

  it('takes the module file #[cfg_attr(feature, path = …)] names, and a cfg_attr never leaves an item out', async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('paths', '[features]\ndefault = ["color"]\ncolor = []\n'),
      'src/lib.rs': [
        '#[cfg_attr(feature = "color", path = "color_impl.rs")]',
        '#[cfg_attr(not(feature = "color"), path = "plain_impl.rs")]',
        'mod imp;',
        '#[cfg_attr(docsrs, doc(cfg(feature = "color")))]',
        'pub fn paint() -> u8 { imp::style() }',
        'pub fn go() -> u8 { paint() }',
        '',
      ].join('\n'),
      'src/color_impl.rs': 'pub fn style() -> u8 { 1 }\n',
      'src/plain_impl.rs': 'pub fn style() -> u8 { 0 }\n',
    });
    expect(calls(r)).toEqual(['src/lib.rs:go -calls-> src/lib.rs:paint', 'src/lib.rs:paint -calls-> src/color_impl.rs:style']);
  });

  it('follows a Deref impl of the program, dyn Trait + Send + Sync, Box::as_ref, raw pointers and typed self receivers', async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('ptrs'),
      'src/lib.rs': [
        'use std::ops::Deref;',
        'use std::sync::Arc;',
        'pub trait Sub { fn hello(&self) -> u8; fn typed(self: &Self) -> u8 { 0 } }',
        'pub struct Chan;',
        'impl Chan { pub fn sender(&self) -> u8 { 1 } }',
        'pub struct Counter<C> { inner: C }',
        'impl<C> Deref for Counter<C> { type Target = C; fn deref(&self) -> &C { &self.inner } }',
        'pub struct Local;',
        'impl Local { pub fn flush(&self) {} }',
        'pub struct Guard { local: *const Local }',
        'pub struct Dispatch { sub: Arc<dyn Sub + Send + Sync> }',
        'pub fn deref_target(c: &Counter<Chan>) -> u8 { c.sender() }',
        'pub fn trait_object(d: &Dispatch) -> u8 { d.sub.hello() + d.sub.typed() }',
        'pub fn boxed(b: Box<dyn Sub>) -> u8 { b.as_ref().hello() }',
        'pub fn raw(g: &Guard) { if let Some(local) = unsafe { g.local.as_ref() } { local.flush(); } }',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual([
      'src/lib.rs:boxed -calls-> src/lib.rs:Sub::hello',
      'src/lib.rs:deref_target -calls-> src/lib.rs:Chan::sender',
      'src/lib.rs:raw -calls-> src/lib.rs:Local::flush',
      'src/lib.rs:trait_object -calls-> src/lib.rs:Sub::hello',
      'src/lib.rs:trait_object -calls-> src/lib.rs:Sub::typed',
    ]);
  });

  it('calls a function of an associated type (R::Offset::f(), <R as Reader>::Offset::f()) and clones a generic receiver', async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('assoc'),
      'src/lib.rs': [
        'pub trait Off: Copy { fn from_u8(v: u8) -> Self; }',
        'pub trait Reader: Clone { type Offset: Off; fn skip(&mut self, n: Self::Offset) -> u8; }',
        'pub struct Section<R> { data: R }',
        'impl<R: Reader> Section<R> {',
        '    pub fn first(&self) -> u8 { let input = &mut self.data.clone(); input.skip(R::Offset::from_u8(0)) }',
        '    pub fn second(&self) -> u8 { let mut input = self.data.clone(); input.skip(<R as Reader>::Offset::from_u8(1)) }',
        '}',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual([
      'src/lib.rs:Section::first -calls-> src/lib.rs:Off::from_u8',
      'src/lib.rs:Section::first -calls-> src/lib.rs:Reader::skip',
      'src/lib.rs:Section::second -calls-> src/lib.rs:Off::from_u8',
      'src/lib.rs:Section::second -calls-> src/lib.rs:Reader::skip',
    ]);
  });

  it('gives the items of a cfg wrapper macro of another file its cfg (cfg_rt! { … }), and reads a same-file one in place', async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('wrap', '[features]\ndefault = []\nfast = []\n'),
      'src/macros.rs': [
        'macro_rules! cfg_fast { ($($item:item)*) => { $( #[cfg(feature = "fast")] $item )* } }',
        'macro_rules! cfg_not_fast { ($($item:item)*) => { $( #[cfg(not(feature = "fast"))] #[cfg_attr(docsrs, doc(cfg(x)))] $item )* } }',
        '',
      ].join('\n'),
      'src/lib.rs': [
        '#[macro_use]',
        'mod macros;',
        'cfg_fast! { mod imp { pub fn speed() -> u32 { 1 } } }',
        'cfg_not_fast! { mod imp { pub fn speed() -> u32 { 0 } } }',
        'macro_rules! local_wrap { ($($i:item)*) => { $( #[cfg(unix)] $i )* } }',
        'local_wrap! {',
        '    pub fn here() -> u32 { imp::speed() }',
        '}',
        'pub fn go() -> u32 { imp::speed() + here() }',
        '',
      ].join('\n'),
    });
    expect(calls(r).filter((e) => e.startsWith('src/lib.rs:go '))).toEqual([
      'src/lib.rs:go -calls-> src/lib.rs:here',
      'src/lib.rs:go -calls-> src/lib.rs:imp::speed@2',
    ]);
    // A wrapper's item is where it is written (line 7), not the whole invocation.
    const here = r.nodes.get('src/lib.rs')?.find((n) => n.vname.signature === 'here');
    expect(here?.range?.startLine).toBe(7);
    expect(calls(r).filter((e) => e.startsWith('src/lib.rs:here '))).toEqual(['src/lib.rs:here -calls-> src/lib.rs:imp::speed@2']);
  });

  it('chooses between cfg twins by what the build script sets on a current compiler, and takes RUSTFLAGS-only cfgs as off', async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('versioned'),
      'build.rs': [
        'fn main() {',
        '    let minor = rustc_minor();',
        '    // Before 1.39 `Vec::new` was not const.',
        '    if minor < 39 {',
        '        println!("cargo:rustc-cfg=no_const_vec_new");',
        '    }',
        '}',
        'fn rustc_minor() -> u32 { 70 }',
        '',
      ].join('\n'),
      'src/lib.rs': [
        'pub struct P;',
        'impl P {',
        '    #[cfg(not(no_const_vec_new))]',
        '    pub const fn new() -> P { P }',
        '    #[cfg(no_const_vec_new)]',
        '    pub fn new() -> P { P }',
        '}',
        '#[cfg(loom)]',
        'fn spin() {}',
        '#[cfg(not(loom))]',
        'fn spin() {}',
        'pub fn make() -> P { spin(); P::new() }',
        '',
      ].join('\n'),
    });
    expect(calls(r).filter((e) => e.startsWith('src/lib.rs:make '))).toEqual([
      'src/lib.rs:make -calls-> src/lib.rs:P::new',
      'src/lib.rs:make -calls-> src/lib.rs:spin@2',
    ]);
  });

  it("chooses a backend module by what the build script's helpers print for this target (rustix), and keeps arms whose field patterns carry cfgs", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('backends'),
      'build.rs': [
        'use std::env::var;',
        'fn main() {',
        '    let arch = var("CARGO_CFG_TARGET_ARCH").unwrap();',
        '    if std::fs::metadata(format!("src/asm/{}.s", arch)).is_ok() {',
        '        use_feature("raw");',
        '    } else {',
        '        use_feature("via_libc");',
        '    }',
        '}',
        'fn use_feature(name: &str) {',
        '    println!("cargo:rustc-cfg={}", name);',
        '}',
        '',
      ].join('\n'),
      'src/asm/x86_64.s': '',
      'src/backend/raw.rs': 'pub fn sys() {}\n',
      'src/backend/libc.rs': 'pub fn sys() {}\n',
      'src/lib.rs': [
        '#[cfg(raw)]',
        '#[path = "backend/raw.rs"]',
        'mod imp;',
        '#[cfg(via_libc)]',
        '#[path = "backend/libc.rs"]',
        'mod imp;',
        'pub fn go() { imp::sys(); }',
        'pub enum Lit { Fallback(Inner), Other }',
        'pub struct Inner;',
        'pub struct Literal { pub inner: Lit }',
        'pub enum Tree { Literal(Literal), Other }',
        'pub fn arm(token: Tree) {',
        '    match token {',
        '        Tree::Literal(Literal {',
        '            #[cfg(raw)]',
        '            inner: Lit::Fallback(x),',
        '            #[cfg(not(raw))]',
        '            inner: x,',
        '        }) => neg(x),',
        '        _ => {}',
        '    }',
        '}',
        'fn neg(x: Inner) {}',
        '',
      ].join('\n'),
    });
    expect(calls(r).filter((e) => e.startsWith('src/lib.rs:go ') || e.startsWith('src/lib.rs:arm '))).toEqual([
      'src/lib.rs:arm -calls-> src/lib.rs:neg',
      'src/lib.rs:go -calls-> src/backend/raw.rs:sys',
    ]);
  });

  it("types a struct variant's fields with its enum's parameters, bound as the matched value's (serde_json's Compound::Map { ser, .. })", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('variants'),
      'src/lib.rs': [
        'pub trait Formatter { fn begin(&mut self) {} }',
        'pub struct Serializer<W, F> { writer: W, formatter: F }',
        "pub enum Compound<'a, W: 'a, F: 'a> {",
        "    Map { ser: &'a mut Serializer<W, F>, state: u8 },",
        "    Tuple(&'a mut Serializer<W, F>),",
        '}',
        "impl<'a, W, F: Formatter> Compound<'a, W, F> {",
        '    pub fn element(&mut self) {',
        '        match self {',
        '            Compound::Map { ser, .. } => ser.formatter.begin(),',
        '            Compound::Tuple(ser) => ser.formatter.begin(),',
        '        }',
        '    }',
        '}',
        '',
      ].join('\n'),
    });
    expect(calls(r).filter((e) => e.startsWith('src/lib.rs:Compound::element '))).toEqual([
      'src/lib.rs:Compound::element -calls-> src/lib.rs:Formatter::begin',
    ]);
  });

  it("reads a std type renamed by its use as the type it names (clap's `result::Result as StdResult` behind an alias with a default)", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('renamed'),
      'src/lib.rs': [
        'use std::{fmt, result::Result as StdResult};',
        'pub trait ErrorFormatter {}',
        'pub struct RichFormatter;',
        'impl ErrorFormatter for RichFormatter {}',
        'pub struct Error<F: ErrorFormatter = RichFormatter> { f: F }',
        'impl<F: ErrorFormatter> Error<F> { pub fn exit(&self) -> ! { loop {} } }',
        'pub type Result<T, E = Error> = StdResult<T, E>;',
        'pub struct Matches;',
        'pub fn try_get() -> Result<Matches> { Ok(Matches) }',
        'pub fn get() -> Matches { try_get().unwrap_or_else(|e| e.exit()) }',
        // The program's trait implemented for the renamed type, called on a value of it (tokio's `impl Wait for StdChild`).
        'use std::process::Child as StdChild;',
        'pub trait Wait { fn id(&self) -> u32; }',
        'impl Wait for StdChild { fn id(&self) -> u32 { 0 } }',
        'pub struct Reaper { inner: StdChild }',
        'pub fn pid(r: &Reaper) -> u32 { r.inner.id() }',
        '',
      ].join('\n'),
    });
    expect(calls(r).filter((e) => e.startsWith('src/lib.rs:get ') || e.startsWith('src/lib.rs:pid '))).toEqual([
      'src/lib.rs:get -calls-> src/lib.rs:Error::exit',
      'src/lib.rs:get -calls-> src/lib.rs:try_get',
      'src/lib.rs:pid -calls-> src/lib.rs:Wait::id',
    ]);
  });

  it('reads use paths from the crate root in an edition 2015 crate (no edition in Cargo.toml)', async () => {
    const r = await analyzeProject({
      'Cargo.toml': '[package]\nname = "old"\nversion = "0.1.0"\n',
      'src/lib.rs': 'mod ser;\nmod private;\n',
      'src/ser.rs': 'pub trait Serialize { fn serialize(&self) -> u8; }\n',
      'src/private.rs': [
        'use ser::Serialize;',
        'pub fn go<T: ?Sized>(value: &T) -> u8 where T: Serialize { value.serialize() }',
        'pub fn rooted<T: ::ser::Serialize>(value: &T) -> u8 { value.serialize() }',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual([
      'src/private.rs:go -calls-> src/ser.rs:Serialize::serialize',
      'src/private.rs:rooted -calls-> src/ser.rs:Serialize::serialize',
    ]);
  });

  it('gives the cfg of a macro invocation to every item it writes', async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('invoked', '[features]\ndefault = ["std"]\nstd = []\n'),
      'src/lib.rs': [
        'macro_rules! declare_error { ($tag:literal) => { pub fn custom() -> u8 { $tag } } }',
        '#[cfg(feature = "std")]',
        'declare_error!(1);',
        '#[cfg(not(feature = "std"))]',
        'declare_error!(2);',
        'pub fn fail() -> u8 { custom() }',
        '',
      ].join('\n'),
    });
    // The std twin (written at line 3) only; the other is `custom@2`.
    expect(calls(r)).toEqual(['src/lib.rs:fail -calls-> src/lib.rs:custom']);
    expect(r.nodes.get('src/lib.rs')?.find((n) => n.vname.signature === 'custom')?.range?.startLine).toBe(3);
  });

  it('does not follow Deref past a method of an outside trait the type implements, nor trust cfgs a build-dependency may set', async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('ext', '[build-dependencies]\ncfg_aliases = "0.1"\n'),
      'build.rs': 'fn main() { cfg_aliases::cfg_aliases! { linux_like: { target_os = "linux" } } }\n',
      'src/lib.rs': [
        'use std::ops::Deref;',
        'pub struct Inner;',
        'impl Inner { pub fn flush(&self) {} pub fn only_inner(&self) {} }',
        'pub struct W(Inner);',
        'impl Deref for W { type Target = Inner; fn deref(&self) -> &Inner { &self.0 } }',
        'impl std::io::Write for W { fn write(&mut self, b: &[u8]) -> std::io::Result<usize> { Ok(b.len()) } fn flush(&mut self) -> std::io::Result<()> { Ok(()) } }',
        'pub fn go(w: &W) { w.flush(); w.only_inner(); }',
        '#[cfg(linux_like)]',
        'fn os() {}',
        '#[cfg(not(linux_like))]',
        'fn os() {}',
        'pub fn which() { os() }',
        '',
      ].join('\n'),
    });
    expect(calls(r).filter((e) => e.startsWith('src/lib.rs:go '))).toEqual(['src/lib.rs:go -calls-> src/lib.rs:Inner::only_inner']);
    // Both twins: which one cfg_aliases! sets is not known.
    expect(calls(r).filter((e) => e.startsWith('src/lib.rs:which '))).toEqual([
      'src/lib.rs:which -calls-> src/lib.rs:os',
      'src/lib.rs:which -calls-> src/lib.rs:os@2',
    ]);
  });

  it('reads a type parameter bounded by Deref as a pointer to its Target (`impl<P> Stream for Pin<P>`)', async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('ext'),
      'src/lib.rs': [
        'use core::ops::{Deref, DerefMut};',
        'use core::pin::Pin;',
        'pub trait Stream { fn poll_next(self: Pin<&mut Self>) -> u8; fn poll_again(self: Pin<&mut Self>) -> u8; fn size_hint(&self) -> usize { 0 } fn is_end(&self) -> bool { false } }',
        // A blanket impl over `Unpin` makes the parameter's outside bounds matter: `P` is still a pointer.
        'impl<S: ?Sized + Stream + Unpin> Stream for &mut S { fn size_hint(&self) -> usize { (**self).size_hint() } }',
        'impl<P> Stream for Pin<P>',
        'where',
        '    P: DerefMut + Unpin,',
        '    P::Target: Stream,',
        '{',
        '    fn poll_next(self: Pin<&mut Self>) -> u8 { self.get_mut().as_mut().poll_next() }',
        // http-body: `Pin`'s method called by its path.
        '    fn poll_again(self: Pin<&mut Self>) -> u8 { Pin::get_mut(self).as_mut().poll_again() }',
        '    fn size_hint(&self) -> usize { (**self).size_hint() }',
        '    fn is_end(&self) -> bool { self.as_ref().is_end() }',
        '}',
        'pub struct Node;',
        'impl Node { pub fn name(&self) -> u8 { 1 } }',
        'pub fn named<P: Deref<Target = Node>>(p: P) -> u8 { p.name() }',
        // A `Deref` bound without a known target: nothing to follow.
        'pub fn unknown<P: Deref>(p: P) -> u8 { p.name() }',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual([
      'src/lib.rs:<&S as Stream>::size_hint -calls-> src/lib.rs:Stream::size_hint',
      'src/lib.rs:<Pin as Stream>::is_end -calls-> src/lib.rs:Stream::is_end',
      'src/lib.rs:<Pin as Stream>::poll_again -calls-> src/lib.rs:Stream::poll_again',
      'src/lib.rs:<Pin as Stream>::poll_next -calls-> src/lib.rs:Stream::poll_next',
      'src/lib.rs:<Pin as Stream>::size_hint -calls-> src/lib.rs:Stream::size_hint',
      'src/lib.rs:named -calls-> src/lib.rs:Node::name',
    ]);
  });

  it("reads an outside pointer trait's Target bound by a where clause, and a method's where clause on its impl's parameter (owning_ref)", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('ext', '[dependencies]\nstable_deref_trait = "1"\n'),
      'src/lib.rs': [
        'use std::ops::Deref;',
        'pub use stable_deref_trait::StableDeref as StableAddress;',
        'pub trait ToHandle { type Handle: Deref; unsafe fn to_handle(x: *const Self) -> Self::Handle; }',
        'pub struct OwningHandle<O, H> { o: O, h: H }',
        'impl<O, H> OwningHandle<O, H> where O: StableAddress, O::Target: ToHandle<Handle = H>, H: Deref {',
        '  pub fn new(o: O) -> Self { OwningHandle::new_with_fn(o, |x| unsafe { O::Target::to_handle(x) }) }',
        '}',
        'impl<O, H> OwningHandle<O, H> where O: StableAddress, H: Deref {',
        '  pub fn new_with_fn<F>(o: O, f: F) -> Self where F: FnOnce(*const O::Target) -> H { let h = f(&*o as *const O::Target); OwningHandle { o, h } }',
        '}',
        "pub trait IntoErased<'a> { type Erased; fn into_erased(self) -> Self::Erased; }",
        'pub trait Named { fn name(&self) -> u8; }',
        'pub struct OwningRef<O, T: ?Sized> { owner: O, reference: *const T }',
        'impl<O: Named, T: ?Sized> OwningRef<O, T> {',
        "  pub fn erase_owner<'a>(self) -> u8 where O: IntoErased<'a> { self.owner.name(); self.owner.into_erased(); 1 }",
        '}',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual([
      'src/lib.rs:OwningHandle::new -calls-> src/lib.rs:OwningHandle::new_with_fn',
      'src/lib.rs:OwningHandle::new -calls-> src/lib.rs:ToHandle::to_handle',
      'src/lib.rs:OwningRef::erase_owner -calls-> src/lib.rs:IntoErased::into_erased',
      'src/lib.rs:OwningRef::erase_owner -calls-> src/lib.rs:Named::name',
    ]);
  });

  it("types std's try!(e) as e? (edition 2015: mio-uds, net2)", async () => {
    const r = await analyzeProject({
      'Cargo.toml': '[package]\nname = "old"\nversion = "0.1.0"\n',
      'src/lib.rs': [
        'use std::io;',
        'pub struct Socket { raw: i32 }',
        'impl Socket {',
        '  pub fn new(t: i32) -> io::Result<Socket> { Ok(Socket { raw: t }) }',
        '  pub fn fd(&self) -> i32 { self.raw }',
        '}',
        'pub fn bind() -> io::Result<i32> { let s = try!(Socket::new(1)); Ok(s.fd()) }',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual(['src/lib.rs:bind -calls-> src/lib.rs:Socket::fd', 'src/lib.rs:bind -calls-> src/lib.rs:Socket::new']);
  });

  it("answers std's types with a blanket impl over an outside trait std implements for them (net2's AsSock for T: AsRawFd)", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('ext'),
      'src/lib.rs': [
        'use std::net::UdpSocket;',
        'use std::os::unix::prelude::*;',
        'use std::io::Read;',
        'pub trait AsSock { fn as_sock(&self) -> i32; }',
        'impl<T: AsRawFd> AsSock for T { fn as_sock(&self) -> i32 { self.as_raw_fd() } }',
        'pub trait ReadExt { fn read_u8(&mut self) -> u8; fn read(&mut self) -> u8; }',
        'impl<R: Read> ReadExt for R { fn read_u8(&mut self) -> u8 { 0 } fn read(&mut self) -> u8 { 0 } }',
        'pub trait UdpSocketExt { fn broadcast(&self) -> i32; }',
        'impl UdpSocketExt for UdpSocket { fn broadcast(&self) -> i32 { self.as_sock() } }',
        'pub fn file(f: &mut std::fs::File, s: &UdpSocket, buf: &mut [u8]) {',
        '  f.read_u8();',
        // `Read::read` is the type's own trait's method: not the extension's.
        '  f.read(buf);',
        // No std impl of `Read` for a `UdpSocket`.
        '  s.read_u8();',
        '}',
        'pub mod other { pub struct File; impl File { pub fn open() -> File { File } } }',
        // A `File` that is not std's takes no blanket method std's impls give.
        'pub fn not_std(f: &mut other::File) { f.read_u8(); }',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual([
      'src/lib.rs:<UdpSocket as UdpSocketExt>::broadcast -calls-> src/lib.rs:AsSock::as_sock',
      'src/lib.rs:file -calls-> src/lib.rs:ReadExt::read_u8',
    ]);
  });

  it("types what std's file and I/O functions and I/O trait methods give, for the program's traits on io::Result (tempfile)", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('ioext'),
      'src/lib.rs': [
        'use std::fs::{self, File};',
        'use std::io::{self, Read, Seek, SeekFrom, Write};',
        'pub trait IoResultExt<T> { fn with_err_path(self, p: &str) -> Self; }',
        'impl<T> IoResultExt<T> for Result<T, io::Error> { fn with_err_path(self, p: &str) -> Self { self } }',
        'pub struct Named { file: File }',
        'impl Named {',
        '  fn as_file_mut(&mut self) -> &mut File { &mut self.file }',
        '  pub fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> { self.as_file_mut().read(buf).with_err_path("r") }',
        '  pub fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> { self.as_file_mut().seek(pos).with_err_path("s") }',
        '  pub fn close(self) -> io::Result<()> { fs::remove_file("x").with_err_path("c") }',
        '}',
        'pub fn open() -> io::Result<File> { File::open("a").with_err_path("o") }',
        'pub fn dir() -> io::Result<()> { std::fs::create_dir_all("d").with_err_path("d") }',
        'pub fn out() -> io::Result<()> { io::stdout().flush().with_err_path("f") }',
        // A namesake `File` (not std's): its `read` may give anything (an async one gives a future).
        'pub mod other { pub struct File; impl File { pub fn read(&mut self, b: &mut [u8]) -> u8 { 0 } } }',
        'pub fn not_std(f: &mut other::File, b: &mut [u8]) { f.read(b).with_err_path("n"); }',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual([
      'src/lib.rs:Named::close -calls-> src/lib.rs:IoResultExt::with_err_path',
      'src/lib.rs:Named::read -calls-> src/lib.rs:IoResultExt::with_err_path',
      'src/lib.rs:Named::read -calls-> src/lib.rs:Named::as_file_mut',
      'src/lib.rs:Named::seek -calls-> src/lib.rs:IoResultExt::with_err_path',
      'src/lib.rs:Named::seek -calls-> src/lib.rs:Named::as_file_mut',
      'src/lib.rs:dir -calls-> src/lib.rs:IoResultExt::with_err_path',
      'src/lib.rs:not_std -calls-> src/lib.rs:other::File::read',
      'src/lib.rs:open -calls-> src/lib.rs:IoResultExt::with_err_path',
      'src/lib.rs:out -calls-> src/lib.rs:IoResultExt::with_err_path',
    ]);
  });

  it("takes a method call whose argument count fits only an outside trait's member for that trait's (tracing-subscriber's Layered)", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('arity', '[dependencies]\ntracing-core = "0.1"\n'),
      'src/lib.rs': [
        'pub trait Layer<S> { fn enabled(&self, meta: &str, ctx: S) -> bool; }',
        'pub struct Layered<A>(A);',
        'impl<S, A> Layer<S> for Layered<A> { fn enabled(&self, meta: &str, ctx: S) -> bool { true } }',
        'impl<A> tracing_core::Subscriber for Layered<A> { fn enabled(&self, meta: &str) -> bool { true } }',
        'pub struct Fmt { inner: Layered<u8> }',
        'impl Fmt {',
        // `Subscriber::enabled(meta)`: one argument, outside the program.
        '  pub fn enabled(&self, m: &str) -> bool { self.inner.enabled(m) }',
        // `Layer::enabled(meta, ctx)`: two.
        '  pub fn layer_enabled(&self, m: &str) -> bool { self.inner.enabled(m, 1u32) }',
        '}',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual(['src/lib.rs:Fmt::layer_enabled -calls-> src/lib.rs:Layer::enabled']);
  });

  it("takes `self.f()` in `f` of a trait impl for an outside type for the type's own method (indicatif's TermLike for console::Term)", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('delegate', '[dependencies]\nconsole = "0.15"\n'),
      'src/lib.rs': [
        'use console::Term;',
        'pub trait TermLike { fn bar_width(&self) -> u16; fn clear_line(&self); fn redraw(&self); }',
        'impl TermLike for Term {',
        '  fn bar_width(&self) -> u16 { 80 }',
        // `Term::clear_line`, inherent: not this method calling itself.
        '  fn clear_line(&self) { self.clear_line() }',
        // Another method of the trait, which `Term` does not have, is the trait's.
        '  fn redraw(&self) { self.bar_width(); }',
        '}',
        // rayon: a trait with arguments, implemented twice for `LinkedList`: one impl calls the other.
        'pub trait ParExtend<T> { fn par_extend(&mut self, items: Vec<T>); }',
        'impl<T> ParExtend<T> for std::collections::LinkedList<T> { fn par_extend(&mut self, items: Vec<T>) {} }',
        "impl<'a, T: Copy> ParExtend<&'a T> for std::collections::LinkedList<T> {",
        "  fn par_extend(&mut self, items: Vec<&'a T>) { self.par_extend(items.into_iter().copied().collect::<Vec<T>>()) }",
        '}',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual([
      'src/lib.rs:<LinkedList as ParExtend>::par_extend@2 -calls-> src/lib.rs:ParExtend::par_extend',
      'src/lib.rs:<Term as TermLike>::redraw -calls-> src/lib.rs:TermLike::bar_width',
    ]);
  });

  it("takes, of one method of several traits a type implements, the trait the scope names (sequoia's MarshalInto)", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('inscope'),
      'src/lib.rs': [
        'pub mod serialize {',
        '  pub trait MarshalInto { fn serialized_len(&self) -> usize; }',
        '  pub trait SerializeInto: MarshalInto { fn serialized_len(&self) -> usize { MarshalInto::serialized_len(self) } }',
        '}',
        'pub mod cert {',
        '  use crate::serialize::MarshalInto;',
        '  pub struct Cert;',
        '  impl MarshalInto for Cert { fn serialized_len(&self) -> usize { 0 } }',
        '  impl crate::serialize::SerializeInto for Cert {}',
        '  pub fn len(c: &Cert) -> usize { c.serialized_len() }',
        '}',
        '',
      ].join('\n'),
    });
    expect(calls(r).filter((e) => e.startsWith('src/lib.rs:cert::'))).toEqual([
      'src/lib.rs:cert::len -calls-> src/lib.rs:serialize::MarshalInto::serialized_len',
    ]);
  });

  it("takes, of one method in impls under modules of different features, the default build's (sequoia's crypto backends)", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('backends', '[features]\ndefault = ["crypto-nettle"]\ncrypto-nettle = []\ncrypto-rust = []\n'),
      'src/lib.rs': [
        'pub struct Algo;',
        'mod backend {',
        '  #[cfg(feature = "crypto-nettle")] mod nettle;',
        '  #[cfg(feature = "crypto-rust")] mod rust;',
        '}',
        'pub fn size(a: &Algo) -> usize { a.key_size() }',
        '',
      ].join('\n'),
      'src/backend/nettle.rs': 'impl crate::Algo { pub fn key_size(&self) -> usize { 16 } }\n',
      'src/backend/rust.rs': 'impl crate::Algo { pub fn key_size(&self) -> usize { 32 } }\n',
    });
    expect(calls(r)).toEqual(['src/lib.rs:size -calls-> src/backend/nettle.rs:Algo::key_size']);
  });

  it("types `v.into()` by a bound `V: Into<Value>`, `mem::take(self)` by its argument (toml_edit), an `OsStr`'s own `len` (nix)", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('convert'),
      'src/lib.rs': [
        'use std::ffi::OsStr;',
        'use std::path::Path;',
        'pub struct Decor;',
        '#[derive(Default)] pub struct Value { decor: Decor }',
        'impl Value { pub fn decor_mut(&mut self) -> &mut Decor { &mut self.decor } }',
        '#[derive(Default)] pub struct Item { value: Value }',
        'impl Item { pub fn into_value(self) -> Value { self.value } }',
        'impl Item {',
        '  pub fn replace<V: Into<Value>>(&mut self, v: V) { let mut value = v.into(); value.decor_mut(); }',
        '  pub fn set(&mut self, v: impl Into<Value>) { v.into().decor_mut(); }',
        '  pub fn make_value(&mut self) { let other = std::mem::take(self); other.into_value(); }',
        '  pub fn swap(&mut self, with: Item) { let old = core::mem::replace(self, with); old.into_value(); }',
        // nix: `OsStr::len` is the type's own; `Path` has none, so `p.len()` is the program's trait's.
        '  pub fn host<S: AsRef<OsStr>>(name: S) -> usize { name.as_ref().len() }',
        '  pub fn path_len(p: &Path) -> usize { p.len() }',
        '}',
        'pub trait NixPath { fn len(&self) -> usize; }',
        'impl NixPath for OsStr { fn len(&self) -> usize { 0 } }',
        'impl NixPath for Path { fn len(&self) -> usize { 0 } }',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual([
      'src/lib.rs:Item::make_value -calls-> src/lib.rs:Item::into_value',
      'src/lib.rs:Item::path_len -calls-> src/lib.rs:NixPath::len',
      'src/lib.rs:Item::replace -calls-> src/lib.rs:Value::decor_mut',
      'src/lib.rs:Item::set -calls-> src/lib.rs:Value::decor_mut',
      'src/lib.rs:Item::swap -calls-> src/lib.rs:Item::into_value',
    ]);
  });

  it("reads through std's MaybeUninit to the value it holds (concread's `(*(*n).k.as_ptr()).ll_weight()`)", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('uninit'),
      'src/lib.rs': [
        'use std::mem::MaybeUninit;',
        'pub trait Weight { fn weight(&self) -> usize; }',
        'pub struct Node<K> { k: MaybeUninit<K> }',
        'pub struct List<K> { size: usize, head: *mut Node<K> }',
        'impl<K: Weight> List<K> {',
        '  pub fn append(&mut self, n: *mut Node<K>) { unsafe { self.size += (*(*n).k.as_ptr()).weight(); } }',
        '  pub fn first(&self) -> usize { unsafe { (*self.head).k.assume_init_ref().weight() } }',
        '}',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual([
      'src/lib.rs:List::append -calls-> src/lib.rs:Weight::weight',
      'src/lib.rs:List::first -calls-> src/lib.rs:Weight::weight',
    ]);
  });

  it("takes, of one method in impls of a generic type for different arguments, the receiver's (bitmaps' Bitmap<U128>)", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('bitmaps', '[dependencies]\ntypenum = "1"\n'),
      'src/lib.rs': [
        'use typenum::{U128, U256};',
        'pub struct Bitmap<Size> { size: Size }',
        'impl Bitmap<U128> { pub fn load(&self) -> u128 { 0 } }',
        'impl Bitmap<U256> { pub fn load(&self) -> [u128; 2] { [0, 0] } }',
        'impl<S> Bitmap<S> { pub fn len(&self) -> usize { 0 } }',
        'pub struct Small(pub Bitmap<U128>);',
        'impl Small { pub fn word(&self) -> u128 { self.0.load() } pub fn size(&self) -> usize { self.0.len() } }',
        // c2-chacha: `Self::new(…)` in a trait impl for one instantiation.
        'impl From<Bitmap<U256>> for [u128; 2] { fn from(b: Bitmap<U256>) -> Self { Bitmap::<U256>::load(&b) } }',
        'impl Default for Bitmap<U128> { fn default() -> Self { let b = Self { size: U128::new() }; Self::load(&b); b } }',
        // Arguments not known: either.
        'pub fn any<S>(b: &Bitmap<S>) { b.load(); }',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual([
      'src/lib.rs:<Bitmap as Default>::default -calls-> src/lib.rs:Bitmap::load',
      'src/lib.rs:<[u128] as From>::from -calls-> src/lib.rs:Bitmap::load@2',
      'src/lib.rs:Small::size -calls-> src/lib.rs:Bitmap::len',
      'src/lib.rs:Small::word -calls-> src/lib.rs:Bitmap::load',
      'src/lib.rs:any -calls-> src/lib.rs:Bitmap::load',
      'src/lib.rs:any -calls-> src/lib.rs:Bitmap::load@2',
    ]);
  });

  it("types `Self::one()` by the type's impl of an outside trait that declares it (num-complex)", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('complex', '[dependencies]\nnum-traits = "0.2"\n'),
      'src/lib.rs': [
        'use core::ops::Sub;',
        'use num_traits::{Num, One};',
        'pub struct Complex<T> { re: T }',
        'impl<T: Clone + Num> One for Complex<T> { fn one() -> Self { Complex { re: T::one() } } }',
        'impl<T: Clone + Num> Sub<Complex<T>> for Complex<T> { type Output = Self; fn sub(self, o: Self) -> Self { self } }',
        'impl<T: Clone + Num> Complex<T> {',
        '  pub fn sqrt(self) -> Self { self }',
        '  pub fn asin(self) -> Self { (Self::one() - self).sqrt() }',
        '}',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual(['src/lib.rs:Complex::asin -calls-> src/lib.rs:Complex::sqrt']);
  });

  it("answers std's iterators with a blanket impl over Iterator, a bounded parameter with a blanket impl's functions, a slice's split_last_mut", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('iterext'),
      'src/lib.rs': [
        'pub struct Decompositions<I>(I);',
        // unicode-normalization: a trait for `&str` and, by a blanket impl, for every iterator of chars.
        'pub trait Normalize<I: Iterator<Item = char>> { fn nfd(self) -> Decompositions<I>; }',
        "impl<'a> Normalize<std::str::Chars<'a>> for &'a str { fn nfd(self) -> Decompositions<std::str::Chars<'a>> { Decompositions(self.chars()) } }",
        'impl<I: Iterator<Item = char>> Normalize<I> for I { fn nfd(self) -> Decompositions<I> { Decompositions(self) } }',
        'pub fn is_nfd(s: &str) -> bool { let _ = s.chars().nfd(); true }',
        // itertools: an extension of every iterator, reached from an `IntoIterator` parameter and a `Vec`.
        'pub trait Itertools: Iterator {',
        '  fn join(&mut self, sep: &str) -> String { String::new() }',
        '  fn multiunzip<F>(self) -> F where Self: Sized + MultiUnzip<F> { MultiUnzip::multiunzip(self) }',
        '}',
        'impl<T: ?Sized + Iterator> Itertools for T {}',
        'pub trait MultiUnzip<F>: Iterator { fn multiunzip(self) -> F; }',
        'impl<IT: Iterator<Item = (u8,)>, F: Default> MultiUnzip<F> for IT { fn multiunzip(self) -> F { F::default() } }',
        // `into_iter()` of an `I` whose `IntoIter` a where clause bounds is not any iterator: not `Itertools::multiunzip`.
        'pub fn multiunzip<F, I>(i: I) -> F where I: IntoIterator, I::IntoIter: MultiUnzip<F> { i.into_iter().multiunzip() }',
        'pub fn join<I>(iterable: I, sep: &str) -> String where I: IntoIterator { iterable.into_iter().join(sep) }',
        'pub fn join_all(v: Vec<u8>) -> String { v.into_iter().join(",") }',
        // An iterator's own method is std's, not an extension's.
        'pub fn count(v: Vec<u8>) -> usize { v.iter().count() }',
        // A slice's `split_last_mut()`: its last element and the rest.
        'pub struct Part; impl Part { pub fn step(&mut self) {} }',
        'pub fn step_last(parts: &mut [Part]) { if let Some((last, _rest)) = parts.split_last_mut() { last.step(); } }',
        // sharded-slab: `C::unpack(i)` for `C: Config`, a function of `impl<C: Config> Private for C`.
        'pub trait Config: Sized {}',
        'pub trait Private: Config { fn unpack(p: usize) -> usize { p } }',
        'impl<C: Config> Private for C {}',
        'pub struct Slab<C: Config>(C);',
        'impl<C: Config> Slab<C> { pub fn get(&self, i: usize) -> usize { C::unpack(i) } }',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual([
      'src/lib.rs:Itertools::multiunzip -calls-> src/lib.rs:MultiUnzip::multiunzip',
      'src/lib.rs:Slab::get -calls-> src/lib.rs:Private::unpack',
      'src/lib.rs:is_nfd -calls-> src/lib.rs:Normalize::nfd',
      'src/lib.rs:join -calls-> src/lib.rs:Itertools::join',
      'src/lib.rs:join_all -calls-> src/lib.rs:Itertools::join',
      'src/lib.rs:step_last -calls-> src/lib.rs:Part::step',
    ]);
  });

  it("reads the items of a `const _: () = { … };` block (rkyv, serde derives) with the block's own uses", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('ext'),
      'src/lib.rs': [
        'pub mod ser { pub trait Serializer { fn pos(&self) -> usize; } }',
        'pub struct Map;',
        'fn helper() -> usize { 0 }',
        '#[cfg(feature = "alloc")]',
        'const _: () = {',
        '    use crate::ser::Serializer;',
        '    impl Map {',
        '        pub fn serialize_from_iter<S: Serializer>(s: &mut S) -> usize { s.pos() + helper() }',
        '    }',
        '};',
        'pub fn go<S: ser::Serializer>(s: &mut S) -> usize { Map::serialize_from_iter(s) }',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual([
      'src/lib.rs:_::Map::serialize_from_iter -calls-> src/lib.rs:helper',
      'src/lib.rs:_::Map::serialize_from_iter -calls-> src/lib.rs:ser::Serializer::pos',
      'src/lib.rs:go -calls-> src/lib.rs:_::Map::serialize_from_iter',
    ]);
  });

  it('trusts the cfgs of a build script whose build-dependencies set none (cc, pkg-config)', async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('ext', '[build-dependencies]\ncc = "1"\npkg-config = { version = "0.3" }\n'),
      'build.rs': 'fn main() { cc::Build::new().file("src/a.c").compile("a"); }\n',
      'src/lib.rs': [
        '#[cfg(all(unix, not(in_libstd)))]',
        'fn os() {}',
        '#[cfg(not(all(unix, not(in_libstd))))]',
        'fn os() {}',
        'pub fn which() { os() }',
        '',
      ].join('\n'),
    });
    // backtrace: `any(not(backtrace_in_libstd), …)` chooses gimli over noop, as rustc does.
    expect(calls(r).filter((e) => e.startsWith('src/lib.rs:which '))).toEqual(['src/lib.rs:which -calls-> src/lib.rs:os']);
  });

  it("binds a trait's parameters to the arguments of the bound a receiver has, its supertraits' too (nom: `F: Parser<I, O, E>`, `f.parse(i)?` giving `(I, O)`)", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('parsers'),
      'src/lib.rs': [
        'pub type IResult<I, O, E = ()> = Result<(I, O), E>;',
        'pub trait InputLength { fn input_len(&self) -> usize; }',
        'pub trait Parser<I, O, E> { fn parse(&mut self, input: I) -> IResult<I, O, E>; }',
        'pub trait Echo<T> { fn echo(&self, t: T) -> T; }',
        'pub fn all_consuming<I: InputLength, O, E, F>(mut f: F) -> impl FnMut(I) -> Result<usize, E>',
        'where',
        '    F: Parser<I, O, E>,',
        '{',
        '    move |input: I| {',
        '        let (rest, _out) = f.parse(input)?;',
        '        Ok(rest.input_len())',
        '    }',
        '}',
        'pub fn echoed<T: InputLength, X: Echo<T>>(x: X, t: T) -> usize { x.echo(t).input_len() }',
        // Through a supertrait: `Sub<U>: Echo<Wrap<U>>`, so an `X: Sub<T>` echoes a `Wrap<T>`.
        'pub struct Wrap<U>(U);',
        'impl<U> Wrap<U> { pub fn unwrap(self) -> U { self.0 } }',
        'pub trait Sub<U>: Echo<Wrap<U>> {}',
        'pub fn sub_echoed<T: InputLength, X: Sub<T>>(x: X, t: T) -> usize { x.echo(Wrap(t)).unwrap().input_len() }',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual([
      'src/lib.rs:all_consuming -calls-> src/lib.rs:InputLength::input_len',
      'src/lib.rs:all_consuming -calls-> src/lib.rs:Parser::parse',
      'src/lib.rs:echoed -calls-> src/lib.rs:Echo::echo',
      'src/lib.rs:echoed -calls-> src/lib.rs:InputLength::input_len',
      'src/lib.rs:sub_echoed -calls-> src/lib.rs:Echo::echo',
      'src/lib.rs:sub_echoed -calls-> src/lib.rs:InputLength::input_len',
      'src/lib.rs:sub_echoed -calls-> src/lib.rs:Wrap::unwrap',
    ]);
  });

  it("types the closure of a Pin's map_unchecked_mut by the pointee (rkyv: `self.map_unchecked_mut(|s| &mut *s.0.as_mut_ptr())`)", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('pins'),
      'src/lib.rs': [
        'use core::pin::Pin;',
        'pub struct RelPtr(u8);',
        'impl RelPtr { pub fn as_mut_ptr(&mut self) -> *mut u8 { &mut self.0 } }',
        'pub struct ArchivedBox(RelPtr);',
        'impl ArchivedBox {',
        '    pub fn get_pin_mut(self: Pin<&mut Self>) -> Pin<&mut u8> { unsafe { self.map_unchecked_mut(|s| &mut *s.0.as_mut_ptr()) } }',
        '}',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual(['src/lib.rs:ArchivedBox::get_pin_mut -calls-> src/lib.rs:RelPtr::as_mut_ptr']);
  });

  it("resolves a trait object's own functions (tracing-core: `impl dyn Subscriber { fn is<T>() }`, `<dyn Subscriber>::is::<T>(s)`)", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('dyns'),
      'src/lib.rs': [
        'pub trait Subscriber { fn enabled(&self) -> bool; }',
        'impl dyn Subscriber { pub fn is<T>(&self) -> bool { self.enabled() } }',
        'pub struct Dispatch { inner: Box<dyn Subscriber> }',
        'impl Dispatch {',
        '    pub fn is<T>(&self) -> bool { <dyn Subscriber>::is::<T>(&*self.inner) }',
        '    pub fn also<T>(&self) -> bool { self.inner.is::<T>() && self.inner.enabled() }',
        '}',
        'pub fn generic<S: Subscriber>(s: &S) -> bool { s.enabled() }',
        // Which of two trait objects' own `name` is meant, the type does not say here: no edge.
        'pub trait Named {}',
        'impl dyn Named { pub fn name(&self) -> u8 { 1 } }',
        'impl dyn Named + Send { pub fn name(&self) -> u8 { 2 } }',
        'pub fn named(n: &(dyn Named + Send)) -> u8 { n.name() }',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual([
      'src/lib.rs:Dispatch::also -calls-> src/lib.rs:Subscriber::enabled',
      'src/lib.rs:Dispatch::also -calls-> src/lib.rs:dyn Subscriber::is',
      'src/lib.rs:Dispatch::is -calls-> src/lib.rs:dyn Subscriber::is',
      'src/lib.rs:dyn Subscriber::is -calls-> src/lib.rs:Subscriber::enabled',
      'src/lib.rs:generic -calls-> src/lib.rs:Subscriber::enabled',
    ]);
  });

  it('reads a type in parentheses as that type (tracing-core: `-> &(dyn Subscriber + Send + Sync)`), `(T,)` as a tuple', async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('parens'),
      'src/lib.rs': [
        'use std::sync::Arc;',
        'pub trait Subscriber { fn on_register(&self); }',
        'pub struct Dispatch { inner: Arc<dyn Subscriber + Send + Sync> }',
        'impl Dispatch {',
        '    pub fn subscriber(&self) -> &(dyn Subscriber + Send + Sync) { &self.inner }',
        '    pub fn one(&self) -> (Dispatch,) { (Dispatch { inner: self.inner.clone() },) }',
        '}',
        'pub fn reg(d: &Dispatch) { d.subscriber().on_register(); d.one().0.subscriber(); }',
        '',
      ].join('\n'),
    });
    expect(calls(r).filter((e) => e.startsWith('src/lib.rs:reg '))).toEqual([
      'src/lib.rs:reg -calls-> src/lib.rs:Dispatch::one',
      'src/lib.rs:reg -calls-> src/lib.rs:Dispatch::subscriber',
      'src/lib.rs:reg -calls-> src/lib.rs:Subscriber::on_register',
    ]);
  });

  it("types an operator through the program's impl of std's operator trait (time: `datetime - OffsetDateTime::UNIX_EPOCH` is a `Duration`)", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('ops'),
      'src/lib.rs': [
        'use core::ops::{Neg, Sub};',
        'pub struct Duration(i64);',
        'impl Duration { pub fn is_zero(&self) -> bool { self.0 == 0 } pub fn abs(self) -> Duration { self } }',
        'impl Neg for Duration { type Output = Self; fn neg(self) -> Self { Duration(-self.0) } }',
        '#[derive(Clone, Copy)] pub struct Time(i64);',
        'impl Time { pub fn hour(self) -> i64 { self.0 } }',
        'impl Sub for Time { type Output = Duration; fn sub(self, rhs: Time) -> Duration { Duration(self.0 - rhs.0) } }',
        'impl Sub<Duration> for Time { type Output = Time; fn sub(self, rhs: Duration) -> Time { Time(self.0 - rhs.0) } }',
        'pub fn since(a: Time, b: Time, d: Duration) -> bool {',
        '    let x = a - b;',
        '    (a - d).hour();',
        '    (-x).abs().is_zero()',
        '}',
        // A right-hand side no impl takes: no type, no edge.
        'pub fn unknown(a: Time, f: fn() -> u8) -> i64 { (a - f()).hour() }',
        '',
      ].join('\n'),
    });
    expect(calls(r).filter((e) => e.startsWith('src/lib.rs:since') || e.startsWith('src/lib.rs:unknown'))).toEqual([
      'src/lib.rs:since -calls-> src/lib.rs:Duration::abs',
      'src/lib.rs:since -calls-> src/lib.rs:Duration::is_zero',
      'src/lib.rs:since -calls-> src/lib.rs:Time::hour',
    ]);
  });

  it('resolves a function of a type from outside the program to the trait of the program it has it from (quickcheck: `String::arbitrary(g)`)', async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('arb'),
      'src/lib.rs': [
        'pub struct Gen;',
        'pub trait Arbitrary: Sized { fn arbitrary(g: &mut Gen) -> Self; fn shrink(&self) -> Vec<Self> { Vec::new() } }',
        'pub trait Named { fn new() -> Self; }',
        'impl Arbitrary for bool { fn arbitrary(_: &mut Gen) -> bool { true } }',
        'impl Arbitrary for String { fn arbitrary(g: &mut Gen) -> String { if bool::arbitrary(g) { String::new() } else { String::from("x") } } }',
        'impl<T: Arbitrary> Arbitrary for Vec<T> { fn arbitrary(g: &mut Gen) -> Vec<T> { vec![T::arbitrary(g)] } }',
        // `String::new` is String\'s own, whatever the program\'s traits have.
        'impl Named for String { fn new() -> Self { String::new() } }',
        'pub fn both(g: &mut Gen) -> usize { let s = String::arbitrary(g); let v = Vec::<String>::arbitrary(g); s.shrink().len() + v.len() }',
        // Of two traits with the function, the one the scope names (num-traits: `use float::Float;` then `f64::nan()`);
        // a float's own method comes first (`self.is_nan()`), and `u32::from` is std's `From`.
        'pub mod fl {',
        '    pub trait Float { fn nan() -> Self; fn is_nan(self) -> bool; }',
        '    pub trait FloatCore { fn nan() -> Self; }',
        '    pub trait Cast { fn from(x: u8) -> Self; }',
        '    impl Float for f64 { fn nan() -> f64 { 0.0 } fn is_nan(self) -> bool { self.is_nan() } }',
        '    impl FloatCore for f64 { fn nan() -> f64 { 0.0 } }',
        '    impl Cast for u32 { fn from(x: u8) -> u32 { 0 } }',
        '}',
        'pub fn nan_one() -> f64 { use fl::Float; let _ = u32::from(1u8); f64::nan() }',
        // A type's own function: `OsStr::to_string_lossy` (rustix's `impl Arg for &OsStr`).
        'use std::ffi::OsStr;',
        'pub trait Arg { fn to_string_lossy(&self) -> String; }',
        'impl Arg for &OsStr { fn to_string_lossy(&self) -> String { OsStr::to_string_lossy(self).into_owned() } }',
        // A type whose own functions are not known: `Instant::to_string_lossy` may be its own.
        'use std::time::Instant;',
        'impl Arg for Instant { fn to_string_lossy(&self) -> String { Instant::to_string_lossy(self) } }',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual([
      'src/lib.rs:<String as Arbitrary>::arbitrary -calls-> src/lib.rs:Arbitrary::arbitrary',
      'src/lib.rs:<Vec as Arbitrary>::arbitrary -calls-> src/lib.rs:Arbitrary::arbitrary',
      'src/lib.rs:both -calls-> src/lib.rs:Arbitrary::arbitrary',
      'src/lib.rs:both -calls-> src/lib.rs:Arbitrary::shrink',
      'src/lib.rs:nan_one -calls-> src/lib.rs:fl::Float::nan',
    ]);
  });

  it("reads a Cow's as_ref() as what it holds (regex: `impl Replacer for Cow<'a, str>` calling `self.as_ref().replace_append(…)`)", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('cows'),
      'src/lib.rs': [
        'use std::borrow::Cow;',
        'pub trait Replacer { fn replace_append(&mut self, dst: &mut String); }',
        "impl<'a> Replacer for &'a str { fn replace_append(&mut self, dst: &mut String) { dst.push_str(self) } }",
        "impl<'a> Replacer for Cow<'a, str> { fn replace_append(&mut self, dst: &mut String) { self.as_ref().replace_append(dst) } }",
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual(['src/lib.rs:<Cow as Replacer>::replace_append -calls-> src/lib.rs:Replacer::replace_append']);
  });

  it('types what std methods give as written at the call (clap: `.collect::<FlatSet<_>>()`; `parse::<T>()`, `collect::<Vec<_>>()`)', async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('turbofish'),
      'src/lib.rs': [
        'pub struct FlatSet<T>(Vec<T>);',
        'impl<T> FlatSet<T> { pub fn is_empty(&self) -> bool { self.0.is_empty() } }',
        'impl<T> FromIterator<T> for FlatSet<T> { fn from_iter<I: IntoIterator<Item = T>>(i: I) -> Self { FlatSet(i.into_iter().collect()) } }',
        'pub struct Port(u16);',
        'impl Port { pub fn open(&self) {} }',
        'impl std::str::FromStr for Port { type Err = (); fn from_str(_: &str) -> Result<Port, ()> { Ok(Port(0)) } }',
        'pub fn headings(names: &[String]) -> bool { names.iter().collect::<FlatSet<_>>().is_empty() }',
        'pub fn open(s: &str) { s.parse::<Port>().unwrap().open() }',
        'pub fn all(ports: Vec<Port>) { for p in ports.into_iter().collect::<Vec<_>>() { p.open() } }',
        '',
      ].join('\n'),
    });
    expect(calls(r).filter((e) => /^src\/lib\.rs:(headings|open|all) /.test(e))).toEqual([
      'src/lib.rs:all -calls-> src/lib.rs:Port::open',
      'src/lib.rs:headings -calls-> src/lib.rs:FlatSet::is_empty',
      'src/lib.rs:open -calls-> src/lib.rs:Port::open',
    ]);
  });

  it("types a block's value by the bindings at its end (gimli: `let mut program = { …; let mut program = LineProgram::new(…); …; program };`)", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('blocks'),
      'src/lib.rs': [
        'pub struct Program;',
        'impl Program {',
        '    pub fn new() -> Program { Program }',
        '    pub fn add(&mut self) {}',
        '    pub fn version(&self) -> u8 { 0 }',
        '}',
        'pub fn build(twice: bool) -> u8 {',
        '    let mut program = {',
        '        let mut program = Program::new();',
        '        if twice { program.add(); }',
        '        program',
        '    };',
        '    let same = unsafe { let q = &program; q };',
        '    program.add();',
        '    same.version()',
        '}',
        '',
      ].join('\n'),
    });
    expect(calls(r).filter((e) => e.startsWith('src/lib.rs:build '))).toEqual([
      'src/lib.rs:build -calls-> src/lib.rs:Program::add',
      'src/lib.rs:build -calls-> src/lib.rs:Program::new',
      'src/lib.rs:build -calls-> src/lib.rs:Program::version',
    ]);
  });

  it("types the public fields of std's range structs (rkyv: `impl<T: Archive> Archive for Range<T>` calling `self.start.resolve()`)", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('ranges'),
      'src/lib.rs': [
        'use core::ops::{Range, RangeFrom};',
        'pub trait Archive { fn resolve(&self); }',
        'impl<T: Archive> Archive for Range<T> {',
        '    fn resolve(&self) { self.start.resolve(); self.end.resolve(); }',
        '}',
        'impl<T: Archive> Archive for RangeFrom<T> {',
        '    fn resolve(&self) { self.start.resolve() }',
        '}',
        'pub struct Span;',
        'impl Span { pub fn width(&self) -> usize { 0 } }',
        'pub fn widths(r: std::ops::RangeInclusive<Span>, to: std::ops::RangeTo<Span>) -> usize { r.start().width() + to.end.width() }',
        '',
      ].join('\n'),
    });
    expect(calls(r).filter((e) => e.includes(' -calls-> '))).toEqual([
      'src/lib.rs:<Range as Archive>::resolve -calls-> src/lib.rs:Archive::resolve',
      'src/lib.rs:<RangeFrom as Archive>::resolve -calls-> src/lib.rs:Archive::resolve',
      'src/lib.rs:widths -calls-> src/lib.rs:Span::width',
    ]);
  });

  it('trusts the cfgs of a build script that sets them through autocfg, as far as its calls say', async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('ext', '[build-dependencies]\nautocfg = "1"\n'),
      'build.rs': [
        'fn main() {',
        '    let ac = autocfg::new();',
        '    if ac.probe_rustc_version(1, 61) { autocfg::emit("has_const_fn_trait_bound"); }',
        '    ac.emit_has_type("i128");',
        '}',
        '',
      ].join('\n'),
      'src/lib.rs': [
        '#[cfg(has_const_fn_trait_bound)]',
        'fn new_lock() {}',
        '#[cfg(not(has_const_fn_trait_bound))]',
        'fn new_lock() {}',
        '#[cfg(has_i128)]',
        'fn wide() {}',
        '#[cfg(not(has_i128))]',
        'fn wide() {}',
        'pub fn make() { new_lock(); wide() }',
        '',
      ].join('\n'),
    });
    // lock_api: the twin a current compiler builds; num-traits' `has_i128` only a compiled probe
    // can tell: both twins, as for any cfg not known.
    expect(calls(r).filter((e) => e.startsWith('src/lib.rs:make '))).toEqual([
      'src/lib.rs:make -calls-> src/lib.rs:new_lock',
      'src/lib.rs:make -calls-> src/lib.rs:wide',
      'src/lib.rs:make -calls-> src/lib.rs:wide@2',
    ]);
  });

  it('reads cfg-if 0.1 branches of several predicates as all of them, and an inherited edition it cannot find as a current one', async () => {
    const r = await analyzeProject({
      'Cargo.toml': '[package]\nname = "mixed"\nversion = "0.1.0"\nedition.workspace = true\n',
      'src/lib.rs': [
        'cfg_if::cfg_if! {',
        '    if #[cfg(unix, windows)] {',
        '        fn imp() {}',
        '    } else {',
        '        fn imp() {}',
        '    }',
        '}',
        'mod foo { pub fn g() {} }',
        'mod m {',
        '    mod foo { pub fn g() {} }',
        '    use foo::g;',
        '    pub fn go() { g() }',
        '}',
        'pub fn pick() { imp() }',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual(['src/lib.rs:m::go -calls-> src/lib.rs:m::foo::g', 'src/lib.rs:pick -calls-> src/lib.rs:imp@2']);
  });

  it("never guesses between a use and an item of one name whose cfgs cannot be known, nor takes a trait method std's own shadows", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('twins2'),
      'build.rs':
        'fn main() {\n    if std::env::var("TARGET").unwrap().contains("64") {\n        println!("cargo:rustc-cfg=has_atomics");\n    }\n}\n',
      'src/lib.rs': [
        '#[cfg(has_atomics)]',
        'use std::sync::atomic::AtomicUsize;',
        '#[cfg(not(has_atomics))]',
        'struct AtomicUsize { v: std::cell::Cell<usize> }',
        '#[cfg(not(has_atomics))]',
        'impl AtomicUsize { fn load(&self) -> usize { self.v.get() } }',
        'static STATE: AtomicUsize = AtomicUsize::new(0);',
        'pub fn state() -> usize { STATE.load(std::sync::atomic::Ordering::SeqCst) }',
        'pub trait Nullable { fn as_ref(&self) -> Option<&u8>; fn is_null(&self) -> bool; }',
        'impl Nullable for Option<u8> { fn as_ref(&self) -> Option<&u8> { None } fn is_null(&self) -> bool { true } }',
        'pub fn opt(o: Option<u8>) -> bool { o.as_ref().is_some() && o.is_null() }',
        'pub trait Make { fn make() -> Self; }',
        'impl<T: Default> Make for T { fn make() -> Self { T::default() } }',
        'pub struct P;',
        'impl P { pub fn make(&self) {} }',
        '',
      ].join('\n'),
    });
    expect(calls(r).filter((e) => e.startsWith('src/lib.rs:state ') || e.startsWith('src/lib.rs:opt '))).toEqual([
      'src/lib.rs:opt -calls-> src/lib.rs:Nullable::is_null',
    ]);
  });
  it("types a closure's parameters from the Fn bound of the program function it is passed to", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('closures'),
      'src/lib.rs': [
        'pub struct ThreadData { pub parker: Parker }',
        'pub struct Parker;',
        'impl Parker { pub fn park(&self) {} }',
        'pub trait Visit { fn visit(&self); }',
        'fn with_thread_data<T>(f: impl FnOnce(&ThreadData) -> T) -> T { f(&ThreadData { parker: Parker }) }',
        'fn each<V: Visit, F>(items: &[V], mut f: F) where F: FnMut(&V, usize) { for (i, v) in items.iter().enumerate() { f(v, i); } }',
        'pub struct Table;',
        'impl Table {',
        '    pub fn scan<F: Fn(&Parker)>(&self, f: F) { f(&Parker) }',
        '    pub fn go(&self) {',
        '        with_thread_data(|td| td.parker.park());',
        '        self.scan(|p| p.park());',
        '        Table::scan(self, |p| p.park());',
        '    }',
        '}',
        'pub fn visit_all<V: Visit>(items: &[V]) { each(items, |v, _| v.visit()); }',
        'pub struct Other;',
        'impl Other { pub fn park(&self) {} }',
        'fn two(f: impl Fn(&Parker), g: impl Fn(&Other)) { f(&Parker); g(&Other) }',
        // A comment among the arguments is no argument.
        'pub fn commented() { two(/* first */ |p| p.park(), |_o| {}); }',
        '',
      ].join('\n'),
    });
    // `each`'s V is whatever the caller passes (Foo's own `visit` would come first): not its bound.
    expect(calls(r).filter((e) => e.includes(':Table::go ') || e.includes(':visit_all ') || e.includes(':commented '))).toEqual([
      'src/lib.rs:Table::go -calls-> src/lib.rs:Parker::park',
      'src/lib.rs:Table::go -calls-> src/lib.rs:Table::scan',
      'src/lib.rs:Table::go -calls-> src/lib.rs:with_thread_data',
      'src/lib.rs:commented -calls-> src/lib.rs:Parker::park',
      'src/lib.rs:commented -calls-> src/lib.rs:two',
      'src/lib.rs:visit_all -calls-> src/lib.rs:each',
    ]);
  });

  it('types a variant or constructor of a type outside the program, for the traits the program implements for it', async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('outside'),
      'src/lib.rs': [
        'use std::net::{SocketAddr, SocketAddrV4};',
        'pub trait ToAddrs { fn to_addrs(&self) -> u8; }',
        'impl ToAddrs for SocketAddr { fn to_addrs(&self) -> u8 { 0 } }',
        'impl ToAddrs for SocketAddrV4 { fn to_addrs(&self) -> u8 { SocketAddr::V4(*self).to_addrs() } }',
        'pub trait Widen { fn widen(self) -> u64; }',
        'impl Widen for u32 { fn widen(self) -> u64 { self as u64 } }',
        'pub fn conv(x: u16) -> u64 { u32::from(x).widen() }',
        'pub fn text(s: &str) -> usize { String::from(s).len() }',
        // The program's trait is implemented for fmt::Error, not io::Error.
        'pub trait Ext { fn ext(&self); }',
        'impl Ext for std::fmt::Error { fn ext(&self) {} }',
        'pub fn io_error() { std::io::Error::new(std::io::ErrorKind::Other, "x").ext(); }',
        'pub fn fmt_error() { core::fmt::Error::default().ext(); }',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual([
      'src/lib.rs:<SocketAddrV4 as ToAddrs>::to_addrs -calls-> src/lib.rs:ToAddrs::to_addrs',
      'src/lib.rs:conv -calls-> src/lib.rs:Widen::widen',
      'src/lib.rs:fmt_error -calls-> src/lib.rs:Ext::ext',
    ]);
  });

  it("lets a statement macro rebind a name the caller passes in (`let $ctx = …`), and keeps the macro's own names inside", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('hygiene'),
      'src/lib.rs': [
        'pub struct Ctx;',
        'impl Ctx { pub fn write(&mut self) {} }',
        "pub struct Barrier<'a> { ctx: &'a mut Ctx }",
        "impl<'a> Barrier<'a> { pub fn new(ctx: &'a mut Ctx) -> Self { Barrier { ctx } } pub fn push(&mut self) {} }",
        'macro_rules! barrier { ($ctx:ident) => { let mut _b = Barrier::new($ctx); let $ctx = &mut _b; }; }',
        'macro_rules! shadow { ($x:ident) => { let mut tmp = Barrier::new($x); tmp.push(); }; }',
        'pub fn run(ctx: &mut Ctx) { barrier!(ctx); ctx.push(); }',
        'pub fn keep(ctx: &mut Ctx, tmp: &mut Ctx) { shadow!(ctx); tmp.write(); }',
        // A rebinding of a type not known (a Pin here) keeps the caller's.
        'macro_rules! pin { ($x:ident) => { let mut $x = unsafe { std::pin::Pin::new_unchecked(&mut $x) }; }; }',
        'pub fn pinned(mut c: Ctx) { pin!(c); c.write(); }',
        // A name inside an expression or a string is not passed in: `ctx` stays a Ctx.
        'macro_rules! rebind { ($e:expr) => { let ctx = Barrier::new($e); ctx.push(); }; }',
        'pub fn inside(ctx: &mut Ctx, other: &mut Ctx) { rebind!(other); rebind!(ctx.into()); ctx.write(); }',
        '',
      ].join('\n'),
    });
    expect(calls(r).filter((e) => e.includes(':inside ') && e.includes('::write'))).toEqual([
      'src/lib.rs:inside -calls-> src/lib.rs:Ctx::write',
    ]);
    expect(calls(r).filter((e) => e.includes(':run ') || e.includes(':keep ') || e.includes(':pinned '))).toEqual([
      'src/lib.rs:keep -calls-> src/lib.rs:Barrier::new',
      'src/lib.rs:keep -calls-> src/lib.rs:Barrier::push',
      'src/lib.rs:keep -calls-> src/lib.rs:Ctx::write',
      'src/lib.rs:pinned -calls-> src/lib.rs:Ctx::write',
      'src/lib.rs:run -calls-> src/lib.rs:Barrier::new',
      'src/lib.rs:run -calls-> src/lib.rs:Barrier::push',
    ]);
  });

  it('types a macro expression whose expansion is a block in a block (`{{ let …; x }}`)', async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('blockmacro'),
      'src/lib.rs': [
        'pub struct Ctx;',
        'impl Ctx { pub fn ensure_space(&mut self) {} }',
        'pub struct Guard;',
        'impl Guard { pub fn new(_c: &mut Ctx) -> Result<Guard, ()> { Ok(Guard) } pub fn log(&self) {} }',
        'macro_rules! begin { ($ctx:expr) => {{ let _log = 1; Guard::new($ctx)? }}; }',
        'pub fn demangle(ctx: &mut Ctx) -> Result<(), ()> { let g = begin!(ctx); g.log(); Ok(()) }',
        '',
      ].join('\n'),
    });
    expect(calls(r).filter((e) => e.includes(':demangle '))).toEqual([
      'src/lib.rs:demangle -calls-> src/lib.rs:Guard::log',
      'src/lib.rs:demangle -calls-> src/lib.rs:Guard::new',
    ]);
  });

  it('types the value an atomic holds (load, swap, fetch_*, compare_exchange) and an AtomicPtr as a raw pointer', async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('atomics'),
      'src/lib.rs': [
        'use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};',
        'trait LockState { fn is_locked(self) -> bool; }',
        'impl LockState for usize { fn is_locked(self) -> bool { self & 1 != 0 } }',
        'pub struct Node;',
        'impl Node { pub fn touch(&self) {} }',
        'pub struct Lock { state: AtomicUsize, head: AtomicPtr<Node> }',
        'impl Lock {',
        '    pub fn lock(&self) -> bool {',
        '        let state = self.state.load(Ordering::Relaxed);',
        '        if let Err(x) = self.state.compare_exchange_weak(state, 1, Ordering::Acquire, Ordering::Relaxed) { return x.is_locked(); }',
        '        if let Some(n) = unsafe { self.head.load(Ordering::Acquire).as_ref() } { n.touch(); }',
        '        self.state.fetch_or(2, Ordering::Release).is_locked()',
        '    }',
        '}',
        '',
      ].join('\n'),
    });
    expect(calls(r).filter((e) => e.startsWith('src/lib.rs:Lock::lock '))).toEqual([
      'src/lib.rs:Lock::lock -calls-> src/lib.rs:LockState::is_locked',
      'src/lib.rs:Lock::lock -calls-> src/lib.rs:Node::touch',
    ]);
  });
  it("types a closure by a higher-ranked Fn bound (for<'c> FnOnce(…)) and a `let x;` by what a macro assigns to it", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('steps'),
      'src/lib.rs': [
        "pub struct Cursor<'c> { p: &'c u8 }",
        "impl<'c> Cursor<'c> { pub fn ident(&self) -> Option<u8> { None } }",
        "pub struct StepCursor<'c, 'a> { cursor: Cursor<'c>, a: &'a u8 }",
        "impl<'c, 'a> std::ops::Deref for StepCursor<'c, 'a> { type Target = Cursor<'c>; fn deref(&self) -> &Cursor<'c> { &self.cursor } }",
        "pub struct ParseBuffer<'a> { a: &'a u8 }",
        "impl<'a> ParseBuffer<'a> {",
        "    pub fn step<F, R>(&self, f: F) -> Option<R> where F: for<'c> FnOnce(StepCursor<'c, 'a>) -> Option<R> { None }",
        '    pub fn is_empty(&self) -> bool { true }',
        '}',
        "pub struct Parens<'a> { pub content: ParseBuffer<'a> }",
        "pub fn parse_parens<'a>(_input: &ParseBuffer<'a>) -> Result<Parens<'a>, u8> { Err(0) }",
        'macro_rules! parenthesized {',
        '    ($content:ident in $cursor:expr) => { match parse_parens(&$cursor) { Ok(parens) => { $content = parens.content; 1 } Err(e) => { return Err(e); } } };',
        '}',
        'pub fn ident(input: &ParseBuffer) -> Option<u8> { input.step(|cursor| cursor.ident()) }',
        'pub fn group(input: &ParseBuffer) -> Result<bool, u8> { let content; let _n = parenthesized!(content in input); Ok(content.is_empty()) }',
        '',
      ].join('\n'),
    });
    expect(calls(r).filter((e) => e.includes(':ident -') || e.includes(':group -'))).toEqual([
      'src/lib.rs:group -calls-> src/lib.rs:ParseBuffer::is_empty',
      'src/lib.rs:group -calls-> src/lib.rs:parse_parens',
      'src/lib.rs:ident -calls-> src/lib.rs:Cursor::ident',
      'src/lib.rs:ident -calls-> src/lib.rs:ParseBuffer::step',
    ]);
  });

  it("reads `0..self.len()` as a range up to a method call, indexes through the program's Index impl, and types String/str conversions", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('ranges'),
      'src/lib.rs': [
        'pub struct Arg;',
        'impl Arg { pub fn is_set(&self) -> bool { true } }',
        'pub struct Cmd { args: Vec<Arg> }',
        'impl Cmd { pub fn count(&self) -> usize { self.args.len() } }',
        'impl std::ops::Index<usize> for Cmd { type Output = Arg; fn index(&self, i: usize) -> &Arg { &self.args[i] } }',
        'pub fn each(c: &Cmd) { for i in 0..c.count() { let _ = c[i].is_set(); } }',
        'pub fn tail(c: &Cmd, from: usize) -> usize { (from..c.count()).len() }',
        'pub trait Replacer { fn replace_in(&self) -> u8; }',
        'impl Replacer for str { fn replace_in(&self) -> u8 { 0 } }',
        'pub fn text(s: String) -> u8 { s.as_str().replace_in() + s.trim().replace_in() }',
        '',
      ].join('\n'),
    });
    expect(calls(r).filter((e) => !e.includes('Cmd as Index'))).toEqual([
      'src/lib.rs:each -calls-> src/lib.rs:Arg::is_set',
      'src/lib.rs:each -calls-> src/lib.rs:Cmd::count',
      'src/lib.rs:tail -calls-> src/lib.rs:Cmd::count',
      'src/lib.rs:text -calls-> src/lib.rs:Replacer::replace_in',
    ]);
  });

  it('does not read a match arm or a field initializer under a cfg the default build leaves out', async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('arms', '[features]\ndefault = []\nerror = []\n'),
      'src/lib.rs': [
        'pub fn on() -> u8 { 1 }',
        'pub fn off() -> u8 { 0 }',
        'pub enum E { A, B }',
        'pub struct S { a: u8, b: u8 }',
        'pub fn pick(e: E) -> u8 { match e { E::A => on(), #[cfg(feature = "error")] E::B => off(), #[cfg(not(feature = "error"))] E::B => on() } }',
        'pub fn make() -> S { S { a: on(), #[cfg(feature = "error")] b: off(), #[cfg(not(feature = "error"))] b: on() } }',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual(['src/lib.rs:make -calls-> src/lib.rs:on', 'src/lib.rs:pick -calls-> src/lib.rs:on']);
  });

  it('takes no guess between impls: trait parameters two impls give differently, slices of another element, several Index outputs, ranges of fields', async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('noguess'),
      'src/lib.rs': [
        'pub struct A;',
        'impl A { pub fn run(&self) {} pub fn width(&self) {} }',
        'pub struct B;',
        'impl B { pub fn run(&self) {} pub fn width(&self) {} }',
        'pub trait Conv<T> { fn conv(self) -> T; }',
        'impl Conv<A> for Result<u8, ()> { fn conv(self) -> A { A } }',
        'impl Conv<B> for Result<u16, ()> { fn conv(self) -> B { B } }',
        'pub fn conv16(r: Result<u16, ()>) { r.conv().run(); }',
        'pub trait Make<T: Default> { fn made(&self) -> T { T::default() } }',
        'pub struct S;',
        'impl Make<A> for S {}',
        'impl Make<B> for S {}',
        'pub fn made(s: S) { let b: B = s.made(); s.made().run(); b.run(); }',
        'pub trait W16 { fn words(&self) -> usize; }',
        'impl W16 for [u16] { fn words(&self) -> usize { 0 } }',
        'pub trait W32 { fn words(&self) -> usize; }',
        'impl W32 for [u32] { fn words(&self) -> usize { 0 } }',
        'pub fn words32(v: &[u32]) -> usize { v.words() }',
        'pub fn words16(w: Vec<u16>) -> usize { w.words() }',
        'pub trait One { fn parse(&self) -> u8; }',
        'impl One for u8 { fn parse(&self) -> u8 { 0 } }',
        'pub trait Many { fn parse(&self) -> u8; }',
        'impl Many for [u8] { fn parse(&self) -> u8 { 0 } }',
        'pub fn head(b: &[u8]) -> u8 { b.get(0..4).unwrap().parse() }',
        'pub fn first(b: &[u8]) -> u8 { b.get(0).unwrap().parse() }',
        'pub struct Table;',
        'impl std::ops::Index<usize> for Table { type Output = A; fn index(&self, _: usize) -> &A { &A } }',
        'impl std::ops::Index<&str> for Table { type Output = B; fn index(&self, _: &str) -> &B { &B } }',
        'pub fn cell(t: &Table) { t["name"].width(); }',
        'pub struct Pos;',
        'impl Pos { pub fn contains(&self, _: &Pos) -> bool { true } }',
        'pub struct Span { start: Pos, end: Pos }',
        'pub fn inside(s: &Span, p: Pos) -> bool { let r = &s.start..&s.end; r.contains(&&p) }',
        '',
      ].join('\n'),
    });
    expect(calls(r).filter((e) => !e.includes(' as '))).toEqual([
      'src/lib.rs:conv16 -calls-> src/lib.rs:B::run',
      'src/lib.rs:conv16 -calls-> src/lib.rs:Conv::conv',
      'src/lib.rs:first -calls-> src/lib.rs:One::parse',
      'src/lib.rs:head -calls-> src/lib.rs:Many::parse',
      'src/lib.rs:made -calls-> src/lib.rs:B::run',
      'src/lib.rs:made -calls-> src/lib.rs:Make::made',
      'src/lib.rs:words16 -calls-> src/lib.rs:W16::words',
      'src/lib.rs:words32 -calls-> src/lib.rs:W32::words',
    ]);
  });

  it("binds a function's type parameters by its arguments (guard(table, |t| …) makes a ScopeGuard of the table)", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('guards'),
      'src/lib.rs': [
        'pub struct ScopeGuard<T, F: FnMut(&mut T)> { value: T, dropfn: F }',
        'impl<T, F: FnMut(&mut T)> std::ops::Deref for ScopeGuard<T, F> { type Target = T; fn deref(&self) -> &T { &self.value } }',
        'pub fn guard<T, F: FnMut(&mut T)>(value: T, dropfn: F) -> ScopeGuard<T, F> { ScopeGuard { value, dropfn } }',
        'pub struct Table;',
        'impl Table { pub fn free(&mut self) {} pub fn slot(&self) -> usize { 0 } }',
        'pub fn resize(t: Table) -> usize { let g = guard(t, |t| t.free()); g.slot() }',
        'pub fn same<T>(a: T, _b: T) -> T { a }',
        'pub fn pick(a: Table, b: Table) -> usize { same(a, b).slot() }',
        '',
      ].join('\n'),
    });
    expect(calls(r).filter((e) => !e.includes(' as '))).toEqual([
      'src/lib.rs:pick -calls-> src/lib.rs:Table::slot',
      'src/lib.rs:pick -calls-> src/lib.rs:same',
      'src/lib.rs:resize -calls-> src/lib.rs:Table::free',
      'src/lib.rs:resize -calls-> src/lib.rs:Table::slot',
      'src/lib.rs:resize -calls-> src/lib.rs:guard',
    ]);
  });

  it('expands an item macro of another file of the crate where it is invoked, and only a macro it can be sure of', async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('sections'),
      'src/lib.rs':
        '#[macro_use]\nmod macros;\npub mod writer;\npub mod abbrev;\n#[macro_use]\nmod a;\n#[macro_use]\nmod b;\npub mod twice;\npub mod order;\n',
      // The file's own macro writes `Thing` after another file's does: Phase A's `Thing` stays its.
      'src/order.rs': [
        'use crate::writer::Writer;',
        'define_section!(Thing);',
        'macro_rules! local { ($n:ident) => { pub struct $n; }; }',
        'local!(Thing);',
        '',
      ].join('\n'),
      'src/macros.rs': [
        'macro_rules! define_section {',
        '    ($name:ident) => {',
        '        pub struct $name<W: Writer>(pub W);',
        '        impl<W: Writer> std::ops::Deref for $name<W> { type Target = W; fn deref(&self) -> &W { &self.0 } }',
        '        impl<W: Writer> $name<W> { pub fn len(&self) -> usize { self.0.size() } }',
        '    };',
        '}',
        '',
      ].join('\n'),
      'src/writer.rs': 'pub trait Writer { fn write_u8(&mut self, v: u8); fn size(&self) -> usize; }\n',
      'src/abbrev.rs': [
        'use crate::writer::Writer;',
        'define_section!(DebugAbbrev);',
        'pub fn emit<W: Writer>(w: &mut DebugAbbrev<W>) { w.write_u8(0); w.len(); }',
        '',
      ].join('\n'),
      // Two macros of one name that say different things: which one is meant is not sure.
      'src/a.rs': 'macro_rules! make { ($n:ident) => { pub struct $n; impl $n { pub fn one(&self) {} } }; }\n',
      'src/b.rs': 'macro_rules! make { ($n:ident) => { pub struct $n; impl $n { pub fn two(&self) {} } }; }\n',
      'src/twice.rs': ['make!(Made);', 'pub fn use_it(m: Made) { m.one(); m.two(); }', ''].join('\n'),
    });
    expect(r.nodes.get('src/abbrev.rs')?.some((n) => n.vname.signature === 'DebugAbbrev' && n.kind === 'struct')).toBe(true);
    expect(calls(r).filter((e) => !e.startsWith('src/twice.rs'))).toEqual([
      'src/abbrev.rs:DebugAbbrev::len -calls-> src/writer.rs:Writer::size',
      'src/abbrev.rs:emit -calls-> src/abbrev.rs:DebugAbbrev::len',
      'src/abbrev.rs:emit -calls-> src/writer.rs:Writer::write_u8',
    ]);
    expect(calls(r).filter((e) => e.startsWith('src/twice.rs'))).toEqual([]);
    const things = (r.nodes.get('src/order.rs') ?? [])
      .filter((n) => n.kind === 'struct')
      .map((n) => `${n.vname.signature}:${n.range?.startLine}`);
    expect(things.sort()).toEqual(['Thing:4', 'Thing@2:2']);
  });

  it("expands `dep::make!` with the dependency's exported macro, not the crate's own of that name", async () => {
    const r = await analyzeProject({
      'Cargo.toml': '[workspace]\nmembers = ["dep", "app"]\n',
      'dep/Cargo.toml': manifest('dep'),
      'dep/src/lib.rs': '#[macro_export]\nmacro_rules! make { ($n:ident) => { pub struct $n; impl $n { pub fn from_dep(&self) {} } }; }\n',
      'app/Cargo.toml': manifest('app', '[dependencies]\ndep = { path = "../dep" }\n'),
      'app/src/lib.rs':
        'macro_rules! make { ($n:ident) => { pub struct $n; impl $n { pub fn from_app(&self) {} } }; }\npub mod user;\npub mod mine;\n',
      'app/src/user.rs': 'dep::make!(Thing);\npub fn go(t: Thing) { t.from_dep(); }\n',
      'app/src/mine.rs': 'make!(Other);\npub fn go(t: Other) { t.from_app(); }\n',
    });
    expect(calls(r)).toEqual([
      'app/src/mine.rs:go -calls-> app/src/mine.rs:Other::from_app',
      'app/src/user.rs:go -calls-> app/src/user.rs:Thing::from_dep',
    ]);
  });

  it("types slices, std's fallible constructors and integer methods, turbofish generics and a trait's parameters from the receiver's impl", async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('reader'),
      'src/lib.rs': [
        'pub struct Header { pub n: u32 }',
        'impl Header { pub fn count(&self) -> u32 { self.n } }',
        "pub trait ReadRef<'a> { fn read_at<T>(self, off: usize) -> Result<&'a T, ()>; }",
        "impl<'a> ReadRef<'a> for &'a [u8] { fn read_at<T>(self, _off: usize) -> Result<&'a T, ()> { Err(()) } }",
        "pub trait ReadError<T> { fn read_error(self, e: &'static str) -> Result<T, &'static str>; }",
        "impl<T> ReadError<T> for Result<T, ()> { fn read_error(self, e: &'static str) -> Result<T, &'static str> { self.map_err(|()| e) } }",
        "impl<T> ReadError<T> for Option<T> { fn read_error(self, e: &'static str) -> Result<T, &'static str> { self.ok_or(e) } }",
        'pub fn parse(data: &[u8]) -> Result<u32, &\'static str> { let h = data.read_at::<Header>(0).read_error("short")?; Ok(h.count()) }',
        'pub fn name(b: &[u8]) -> Result<&str, &\'static str> { std::str::from_utf8(b).ok().read_error("utf8") }',
        'pub fn index(v: &[Header], i: usize) -> u32 { v.get(i).map(|h| h.count()).unwrap_or(0) }',
        'pub fn add(a: u32, b: u32) -> Result<u32, &\'static str> { a.checked_add(b).read_error("overflow") }',
        "pub struct Bytes<'a>(pub &'a [u8]);",
        "impl<'a> Bytes<'a> { pub fn skip(&mut self) {} }",
        'pub fn wrap(r: Result<&[u8], ()>) { if let Ok(mut b) = r.map(Bytes) { b.skip(); } }',
        // A slice's own method comes before the program's trait method of that name.
        'pub trait Size { fn len(&self) -> usize; fn size(&self) -> usize; }',
        'impl Size for [u8] { fn len(&self) -> usize { 0 } fn size(&self) -> usize { 0 } }',
        'pub fn sizes(v: Vec<u8>) -> usize { v.len() + v.size() }',
        '',
      ].join('\n'),
    });
    expect(calls(r).filter((e) => !e.includes('ReadError>::read_error'))).toEqual([
      'src/lib.rs:add -calls-> src/lib.rs:ReadError::read_error',
      'src/lib.rs:index -calls-> src/lib.rs:Header::count',
      'src/lib.rs:name -calls-> src/lib.rs:ReadError::read_error',
      'src/lib.rs:parse -calls-> src/lib.rs:Header::count',
      'src/lib.rs:parse -calls-> src/lib.rs:ReadError::read_error',
      'src/lib.rs:parse -calls-> src/lib.rs:ReadRef::read_at',
      'src/lib.rs:sizes -calls-> src/lib.rs:Size::size',
      'src/lib.rs:wrap -calls-> src/lib.rs:Bytes::skip',
    ]);
  });
});

describe('bad input', () => {
  it('indexes a file with syntax errors (its good items kept, the error reported) and a broken Cargo.toml', async () => {
    const r = await analyzeProject({
      'Cargo.toml': '[package\nname = ',
      'src/lib.rs': 'pub fn good() { helper(); }\nfn helper() {}\nfn broken( { let = ; }\npub fn after() { good(); }\n',
    });
    expect(r.failed).toEqual([]);
    expect(calls(r)).toEqual(expect.arrayContaining(['src/lib.rs:good -calls-> src/lib.rs:helper']));
    expect(r.diagnostics.get('src/lib.rs')?.map((d) => d.code)).toContain('PARSE_ERRORS');
    expect(r.logs.join('\n')).toMatch(/Cargo\.toml could not be read/);
  });

  it('bounds a macro that expands into itself without end and a body thousands of terms deep: later files still resolve', async () => {
    const terms = Array.from({ length: 20_000 }, (_, i) => `f(${i})`).join(' + ');
    const r = await analyzeProject({
      'Cargo.toml': manifest('deep'),
      'src/lib.rs': 'mod a;\nmod b;\npub fn f(x: u32) -> u32 { x }\n',
      // Each step adds a token and invokes itself again, as rustc would until its recursion limit.
      'src/a.rs': [
        'macro_rules! grow { ($($t:tt)*) => { crate::f(0); grow!($($t)* 1) }; }',
        'pub fn runaway() { grow!(1); }',
        'pub fn twice() { twice_more!(x); }',
        'macro_rules! twice_more { ($($t:tt)*) => { crate::f(1); twice_more!($($t)* a); twice_more!($($t)* b) }; }',
        `pub fn deep() -> u32 { use crate::f; ${terms} }`,
        '',
      ].join('\n'),
      'src/b.rs': 'pub fn later() { crate::f(2); helper(); }\nfn helper() {}\n',
    });
    expect(r.failed).toEqual([]);
    expect(calls(r)).toEqual(
      expect.arrayContaining([
        'src/a.rs:runaway -calls-> src/lib.rs:f',
        'src/a.rs:twice -calls-> src/lib.rs:f',
        'src/a.rs:deep -calls-> src/lib.rs:f',
        'src/b.rs:later -calls-> src/lib.rs:f',
        'src/b.rs:later -calls-> src/b.rs:helper',
      ]),
    );
    expect(r.diagnostics.get('src/a.rs')?.find((d) => d.code === 'RESOLVER_LIMIT')?.message).toMatch(/^2 function bodies are deeper/);
    expect(r.diagnostics.get('src/b.rs')?.map((d) => d.code)).not.toContain('RESOLVER_LIMIT');
  });

  it('reports a `mod x;` whose file is missing (generated into OUT_DIR) and resolves the rest', async () => {
    const r = await analyzeProject({
      'Cargo.toml': manifest('gen'),
      'build.rs': 'fn main() { std::fs::write("x", "y").unwrap(); }\n',
      'src/lib.rs': 'mod generated;\ninclude!(concat!(env!("OUT_DIR"), "/gen.rs"));\npub fn a() { b(); }\nfn b() {}\n',
    });
    expect(calls(r)).toEqual(['src/lib.rs:a -calls-> src/lib.rs:b']);
    expect(r.diagnostics.get('src/lib.rs')?.find((d) => d.code === 'UNRESOLVED_MODULE')?.message).toMatch(/no file for mod generated/);
  });
});
