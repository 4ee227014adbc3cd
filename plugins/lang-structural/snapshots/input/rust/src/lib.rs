//! A tiny key-value cache with expiry.
use std::collections::HashMap;
use std::time::{Duration, Instant};
use crate::clock::{self, Clock as _};

pub mod clock;

/// Something that can be stored in the cache.
pub trait Entry: Clone + Send {
    fn size(&self) -> usize;
    fn describe(&self) -> String {
        format!("{} bytes", self.size())
    }
}

#[derive(Debug, Default)]
pub struct Cache<V: Entry> {
    items: HashMap<String, (V, Instant)>,
    ttl: Duration,
}

pub enum Lookup<V> {
    Hit(V),
    Expired,
    Missing,
}

impl<V: Entry> Cache<V> {
    pub fn new(ttl: Duration) -> Self {
        Cache { items: HashMap::new(), ttl }
    }

    pub fn get(&mut self, key: &str) -> Lookup<V> {
        match self.items.get(key) {
            Some((v, at)) if at.elapsed() < self.ttl => Lookup::Hit(v.clone()),
            Some(_) => {
                self.items.remove(key);
                Lookup::Expired
            }
            None => Lookup::Missing,
        }
    }

    pub fn insert(&mut self, key: impl Into<String>, value: V) {
        let now = clock::now();
        self.items.insert(key.into(), (value, now));
    }
}

impl Entry for String {
    fn size(&self) -> usize {
        self.len()
    }
}

macro_rules! cache_of {
    ($ttl:expr) => {
        $crate::Cache::new(std::time::Duration::from_secs($ttl))
    };
}

const RAW: &str = r#"a "quoted" raw string"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_then_get() {
        let mut c: Cache<String> = cache_of!(60);
        c.insert("k", "v".to_string());
        assert!(matches!(c.get("k"), Lookup::Hit(_)));
    }
}
