//! Where accounts live.
// ^^^^^^^^^^^^^^^^^^^^^^^^ definition module <module> (name store) [1:0-17:0]
mod memory;
// ^^^^^^^^^^^ definition module memory [2:0-2:11]

pub use memory::Memory;
// ^^^^^^^^^^^^^^^^^^^^^^^ reference imports memory::Memory [4:0-4:23]

use crate::Account;
// ^^^^^^^^^^^^^^^^^^^ reference imports crate::Account [6:0-6:19]

/// A place accounts are kept.
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition trait Store [8:0-16:1]
pub trait Store {
    fn load(&self, name: &str) -> Option<Account>;
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Store::load
    fn names(&self) -> Vec<String>;
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Store::names
    /// Whether the store holds an account.
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Store::has (to 15:5)
    fn has(&self, name: &str) -> bool {
        self.load(name).is_some()
//      ^^^^^^^^^^^^^^^^^^^^^^^ reference calls is_some (from Store::has)
//      ^^^^^^^^^ reference calls load (from Store::has)
    }
}
// ----- travsr snapshot: src/store/mod.rs (rust, phase A, status ok) -----
// node file <file> (mod.rs)
// reference types Account (from Store::load) (no range)
// reference types Option (from Store::load) (no range)
// reference types String (from Store::names) (no range)
// reference types Vec (from Store::names) (no range)
// skeleton <module>: "Where accounts live."
// skeleton Store: "/// A place accounts are kept.\npub trait Store"
// skeleton Store::has: "/// Whether the store holds an account.\nfn has(&self, name: &str) -> bool"
// skeleton Store::load: "fn load(&self, name: &str) -> Option<Account>;"
// skeleton Store::names: "fn names(&self) -> Vec<String>;"
// skeleton memory: "mod memory;"
// edge contains <file> -> <module> (confidence 1, phase-a)
// edge contains <module> -> Store (confidence 1, phase-a)
// edge contains <module> -> memory (confidence 1, phase-a)
// edge contains Store -> Store::has (confidence 1, phase-a)
// edge contains Store -> Store::load (confidence 1, phase-a)
// edge contains Store -> Store::names (confidence 1, phase-a)
