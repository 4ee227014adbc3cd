use super::Store;
use crate::Account;
use std::collections::BTreeMap;

#[derive(Default)]
pub struct Memory {
    accounts: BTreeMap<String, Account>,
}

impl Memory {
    pub fn with(accounts: Vec<Account>) -> Memory {
        let mut m = Memory::default();
        for a in accounts {
            m.accounts.insert(a.name.clone(), a);
        }
        m
    }
}

impl Store for Memory {
    fn load(&self, name: &str) -> Option<Account> {
        self.accounts.get(name).cloned()
    }

    fn names(&self) -> Vec<String> {
        self.accounts.keys().cloned().collect()
    }
}

fn broken(x: u32 {
    let y = ;
}

pub fn after_the_break() -> Memory {
    Memory::with(vec![])
}
