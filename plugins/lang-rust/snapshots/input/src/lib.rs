//! A small ledger: accounts, postings and a store behind a trait.
pub mod store;
mod format;

use std::collections::HashMap;
pub use store::{Memory, Store};

/// Money in cents.
pub type Cents = i64;

/// The largest posting accepted.
pub const LIMIT: Cents = 1_000_000;

/// An account and its postings.
#[derive(Debug, Clone)]
pub struct Account {
    pub name: String,
    postings: Vec<Posting>,
}

/// One movement of money.
#[derive(Debug, Clone, Copy)]
pub enum Posting {
    Credit(Cents),
    Debit(Cents),
    Void,
}

impl Account {
    /// Opens an empty account.
    pub fn open(name: &str) -> Self {
        Account { name: name.to_string(), postings: Vec::new() }
    }

    pub fn post(&mut self, p: Posting) -> Result<(), String> {
        if p.amount().abs() > LIMIT {
            return Err(format::too_large(p.amount()));
        }
        self.postings.push(p);
        Ok(())
    }

    pub fn balance(&self) -> Cents {
        self.postings.iter().map(|p| p.amount()).sum()
    }
}

impl Posting {
    pub fn amount(&self) -> Cents {
        match self {
            Posting::Credit(c) => *c,
            Posting::Debit(d) => -d,
            Posting::Void => 0,
        }
    }
}

/// Balances of every account in a store.
pub fn balances<S: Store>(store: &S) -> HashMap<String, Cents> {
    let mut out = HashMap::new();
    for name in store.names() {
        if let Some(acc) = store.load(&name) {
            out.insert(name, acc.balance());
        }
    }
    out
}

macro_rules! audit {
    ($e:expr) => {
        format::audit_line($e)
    };
}

#[cfg(feature = "audit")]
pub fn audited(acc: &Account) -> String {
    audit!(acc.balance())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn posts() {
        let mut a = Account::open("cash");
        a.post(Posting::Credit(5)).unwrap();
        assert_eq!(a.balance(), 5);
    }
}
