//! A tiny key-value cache with expiry.
use std::collections::HashMap;
//  ^^^^^^^^^^^^^^^^^^^^^^^^^ reference imports std::collections::HashMap
use std::time::{Duration, Instant};
//              ^^^^^^^^ reference imports std::time::Duration
//                        ^^^^^^^ reference imports std::time::Instant
use crate::clock::{self, Clock as _};
//                       ^^^^^ reference imports crate::clock::Clock

pub mod clock;
//      ^^^^^ reference imports clock

/// Something that can be stored in the cache.
pub trait Entry: Clone + Send {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition trait Entry [9:0-14:1]
//               ^^^^^ reference inherits Clone (from Entry)
//                       ^^^^ reference inherits Send (from Entry)
    fn size(&self) -> usize;
//  ^^^^^^^^^^^^^^^^^^^^^^^^ definition method Entry.size
    fn describe(&self) -> String {
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Entry.describe (to 13:5)
        format!("{} bytes", self.size())
    }
}

#[derive(Debug, Default)]
pub struct Cache<V: Entry> {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition struct Cache [17:0-20:1]
    items: HashMap<String, (V, Instant)>,
    ttl: Duration,
}

pub enum Lookup<V> {
// ^^^^^^^^^^^^^^^^^^^^ definition enum Lookup [22:0-26:1]
    Hit(V),
    Expired,
    Missing,
}

impl<V: Entry> Cache<V> {
    pub fn new(ttl: Duration) -> Self {
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Cache.new (to 31:5)
        Cache { items: HashMap::new(), ttl }
//                     ^^^^^^^^^^^^ reference calls HashMap::new (from Cache.new)
    }

    pub fn get(&mut self, key: &str) -> Lookup<V> {
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Cache.get (to 42:5)
        match self.items.get(key) {
//            ^^^^^^^^^^^^^^ reference calls self.items.get (from Cache.get)
            Some((v, at)) if at.elapsed() < self.ttl => Lookup::Hit(v.clone()),
//                           ^^^^^^^^^^ reference calls at.elapsed (from Cache.get)
//                                                      ^^^^^^^^^^^ reference calls Lookup::Hit (from Cache.get)
//                                                                  ^^^^^^^ reference calls v.clone (from Cache.get)
            Some(_) => {
                self.items.remove(key);
//              ^^^^^^^^^^^^^^^^^ reference calls self.items.remove (from Cache.get)
                Lookup::Expired
            }
            None => Lookup::Missing,
        }
    }

    pub fn insert(&mut self, key: impl Into<String>, value: V) {
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Cache.insert (to 47:5)
        let now = clock::now();
//                ^^^^^^^^^^ reference calls clock::now (from Cache.insert)
        self.items.insert(key.into(), (value, now));
//      ^^^^^^^^^^^^^^^^^ reference calls self.items.insert (from Cache.insert)
//                        ^^^^^^^^ reference calls key.into (from Cache.insert)
    }
}

impl Entry for String {
//   ^^^^^ reference implements Entry
    fn size(&self) -> usize {
//  ^^^^^^^^^^^^^^^^^^^^^^^^^ definition method String.size (to 53:5)
        self.len()
//      ^^^^^^^^ reference calls self.len (from String.size)
    }
}

macro_rules! cache_of {
// ^^^^^^^^^^^^^^^^^^^^^^^ definition macro cache_of [56:0-60:1]
    ($ttl:expr) => {
        $crate::Cache::new(std::time::Duration::from_secs($ttl))
    };
}

const RAW: &str = r#"a "quoted" raw string"#;

#[cfg(test)]
mod tests {
// ^^^^^^^^^^^ definition module tests [65:0-74:1]
    use super::*;
//      ^^^^^ reference imports super (from tests)

    #[test]
    fn insert_then_get() {
//  ^^^^^^^^^^^^^^^^^^^^^^ definition function tests.insert_then_get (to 73:5)
        let mut c: Cache<String> = cache_of!(60);
//                                 ^^^^^^^^ reference calls cache_of (from tests.insert_then_get)
        c.insert("k", "v".to_string());
//      ^^^^^^^^ reference calls c.insert (from tests.insert_then_get)
//                    ^^^^^^^^^^^^^ reference calls to_string (from tests.insert_then_get)
        assert!(matches!(c.get("k"), Lookup::Hit(_)));
    }
}
// ----- travsr snapshot: rust/src/lib.rs (bash, phase A, status ok) -----
// node file <file> (lib.rs)
// skeleton Cache.get: "pub fn get(&mut self, key: &str) -> Lookup<V>"
// skeleton Cache.insert: "pub fn insert(&mut self, key: impl Into<String>, value: V)"
// skeleton Cache.new: "pub fn new(ttl: Duration) -> Self"
// skeleton Cache: "pub struct Cache<V: Entry>"
// skeleton Entry.describe: "fn describe(&self) -> String"
// skeleton Entry.size: "fn size(&self) -> usize;"
// skeleton Entry: "/// Something that can be stored in the cache.\npub trait Entry: Clone + Send"
// skeleton Lookup: "pub enum Lookup<V>"
// skeleton String.size: "fn size(&self) -> usize"
// skeleton cache_of: "macro_rules! cache_of {"
// skeleton tests.insert_then_get: "fn insert_then_get()"
// skeleton tests: "mod tests"
// edge contains <file> -> Cache (confidence 1, phase-a)
// edge contains <file> -> Cache.get (confidence 1, phase-a)
// edge contains <file> -> Cache.insert (confidence 1, phase-a)
// edge contains <file> -> Cache.new (confidence 1, phase-a)
// edge contains <file> -> Entry (confidence 1, phase-a)
// edge contains <file> -> Lookup (confidence 1, phase-a)
// edge contains <file> -> String.size (confidence 1, phase-a)
// edge contains <file> -> cache_of (confidence 1, phase-a)
// edge contains <file> -> tests (confidence 1, phase-a)
// edge contains Entry -> Entry.describe (confidence 1, phase-a)
// edge contains Entry -> Entry.size (confidence 1, phase-a)
// edge contains tests -> tests.insert_then_get (confidence 1, phase-a)
