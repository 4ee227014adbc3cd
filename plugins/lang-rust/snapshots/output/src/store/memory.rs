use super::Store;
// ^^^^^^^^^^^^^^^^^ definition module <module> (name memory) [1:0-37:0]
// ^^^^^^^^^^^^^^^^^ reference imports super::Store [1:0-1:17]
use crate::Account;
// ^^^^^^^^^^^^^^^^^^^ reference imports crate::Account [2:0-2:19]
use std::collections::BTreeMap;
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ reference imports std::collections::BTreeMap [3:0-3:31]

#[derive(Default)]
// ^^^^^^^^^^^^^^^^^^ definition struct Memory [5:0-8:1]
pub struct Memory {
    accounts: BTreeMap<String, Account>,
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition field Memory::accounts
}

impl Memory {
    pub fn with(accounts: Vec<Account>) -> Memory {
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Memory::with (to 17:5)
        let mut m = Memory::default();
//                  ^^^^^^^^^^^^^^^ reference calls Memory::default (from Memory::with)
        for a in accounts {
            m.accounts.insert(a.name.clone(), a);
//          ^^^^^^^^^^^^^^^^^ reference calls insert (from Memory::with)
//                            ^^^^^^^^^^^^ reference calls clone (from Memory::with)
        }
        m
    }
}

impl Store for Memory {
    fn load(&self, name: &str) -> Option<Account> {
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method <Memory as Store>::load (to 23:5)
        self.accounts.get(name).cloned()
//      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ reference calls cloned (from <Memory as Store>::load)
//      ^^^^^^^^^^^^^^^^^ reference calls get (from <Memory as Store>::load)
    }

    fn names(&self) -> Vec<String> {
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method <Memory as Store>::names (to 27:5)
        self.accounts.keys().cloned().collect()
//      ^^^^^^^^^^^^^^^^^^^^^^^^^^^ reference calls cloned (from <Memory as Store>::names)
//      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ reference calls collect (from <Memory as Store>::names)
//      ^^^^^^^^^^^^^^^^^^ reference calls keys (from <Memory as Store>::names)
    }
}

fn broken(x: u32 {
// ^^^^^^^^^^^^^^^^^^ definition function broken [30:0-32:1]
//              ^ diagnostic warning PARSE_ERRORS: 2 syntax errors (1 ERROR, 1 MISSING nodes); definitions in the broken region may be missing
    let y = ;
}

pub fn after_the_break() -> Memory {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function after_the_break [34:0-36:1]
    Memory::with(vec![])
//  ^^^^^^^^^^^^ reference calls Memory::with (from after_the_break)
}
// ----- travsr snapshot: src/store/memory.rs (rust, phase A, status ok) -----
// node file <file> (memory.rs)
// reference implements Store (from Memory) (no range)
// reference types Account (from <Memory as Store>::load) (no range)
// reference types Account (from Memory) (no range)
// reference types Account (from Memory::with) (no range)
// reference types BTreeMap (from Memory) (no range)
// reference types Memory (from Memory::with) (no range)
// reference types Memory (from after_the_break) (no range)
// reference types Option (from <Memory as Store>::load) (no range)
// reference types String (from <Memory as Store>::names) (no range)
// reference types String (from Memory) (no range)
// reference types Vec (from <Memory as Store>::names) (no range)
// reference types Vec (from Memory::with) (no range)
// skeleton <Memory as Store>::load: "fn load(&self, name: &str) -> Option<Account>"
// skeleton <Memory as Store>::names: "fn names(&self) -> Vec<String>"
// skeleton Memory: "#[derive(Default)]\npub struct Memory { accounts: BTreeMap<String, Account>, }"
// skeleton Memory::accounts: "accounts: BTreeMap<String, Account>"
// skeleton Memory::with: "pub fn with(accounts: Vec<Account>) -> Memory"
// skeleton after_the_break: "pub fn after_the_break() -> Memory"
// skeleton broken: "fn broken(x: u32"
// edge contains <file> -> <module> (confidence 1, phase-a)
// edge contains <module> -> Memory (confidence 1, phase-a)
// edge contains <module> -> after_the_break (confidence 1, phase-a)
// edge contains <module> -> broken (confidence 1, phase-a)
// edge contains Memory -> <Memory as Store>::load (confidence 1, phase-a)
// edge contains Memory -> <Memory as Store>::names (confidence 1, phase-a)
// edge contains Memory -> Memory::accounts (confidence 1, phase-a)
// edge contains Memory -> Memory::with (confidence 1, phase-a)
