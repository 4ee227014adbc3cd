//! A small ledger: accounts, postings and a store behind a trait.
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition module <module> (name ledger) [1:0-91:0]
pub mod store;
// ^^^^^^^^^^^^^^ definition module store [2:0-2:14]
mod format;
// ^^^^^^^^^^^ definition module format [3:0-3:11]

use std::collections::HashMap;
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ reference imports std::collections::HashMap [5:0-5:30]
pub use store::{Memory, Store};
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ reference imports store::Memory [6:0-6:31]
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ reference imports store::Store [6:0-6:31]

/// Money in cents.
// ^^^^^^^^^^^^^^^^^^^ definition type Cents [8:0-9:21]
pub type Cents = i64;

/// The largest posting accepted.
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition constant LIMIT [11:0-12:35]
pub const LIMIT: Cents = 1_000_000;

/// An account and its postings.
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition struct Account [14:0-19:1]
#[derive(Debug, Clone)]
pub struct Account {
    pub name: String,
//  ^^^^^^^^^^^^^^^^ definition field Account::name
    postings: Vec<Posting>,
//  ^^^^^^^^^^^^^^^^^^^^^^ definition field Account::postings
}

/// One movement of money.
// ^^^^^^^^^^^^^^^^^^^^^^^^^^ definition enum Posting [21:0-27:1]
#[derive(Debug, Clone, Copy)]
pub enum Posting {
    Credit(Cents),
//  ^^^^^^^^^^^^^ definition constant Posting::Credit
    Debit(Cents),
//  ^^^^^^^^^^^^ definition constant Posting::Debit
    Void,
//  ^^^^ definition constant Posting::Void
}

impl Account {
    /// Opens an empty account.
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Account::open (to 33:5)
    pub fn open(name: &str) -> Self {
        Account { name: name.to_string(), postings: Vec::new() }
//                      ^^^^^^^^^^^^^^ reference calls to_string (from Account::open)
//                                                  ^^^^^^^^ reference calls Vec::new (from Account::open)
    }

    pub fn post(&mut self, p: Posting) -> Result<(), String> {
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Account::post (to 41:5)
        if p.amount().abs() > LIMIT {
//         ^^^^^^^^^^^^^^ reference calls abs (from Account::post)
//         ^^^^^^^^ reference calls amount (from Account::post)
            return Err(format::too_large(p.amount()));
//                 ^^^ reference calls Err (from Account::post)
//                     ^^^^^^^^^^^^^^^^^ reference calls format::too_large (from Account::post)
//                                       ^^^^^^^^ reference calls amount (from Account::post)
        }
        self.postings.push(p);
//      ^^^^^^^^^^^^^^^^^^ reference calls push (from Account::post)
        Ok(())
//      ^^ reference calls Ok (from Account::post)
    }

    pub fn balance(&self) -> Cents {
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Account::balance (to 45:5)
        self.postings.iter().map(|p| p.amount()).sum()
//      ^^^^^^^^^^^^^^^^^^ reference calls iter (from Account::balance)
//      ^^^^^^^^^^^^^^^^^^^^^^^^ reference calls map (from Account::balance)
//      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ reference calls sum (from Account::balance)
//                                   ^^^^^^^^ reference calls amount (from Account::balance)
    }
}

impl Posting {
    pub fn amount(&self) -> Cents {
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Posting::amount (to 55:5)
        match self {
            Posting::Credit(c) => *c,
            Posting::Debit(d) => -d,
            Posting::Void => 0,
        }
    }
}

/// Balances of every account in a store.
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function balances [58:0-67:1]
pub fn balances<S: Store>(store: &S) -> HashMap<String, Cents> {
    let mut out = HashMap::new();
//                ^^^^^^^^^^^^ reference calls HashMap::new (from balances)
    for name in store.names() {
//              ^^^^^^^^^^^ reference calls names (from balances)
        if let Some(acc) = store.load(&name) {
//                         ^^^^^^^^^^ reference calls load (from balances)
            out.insert(name, acc.balance());
//          ^^^^^^^^^^ reference calls insert (from balances)
//                           ^^^^^^^^^^^ reference calls balance (from balances)
        }
    }
    out
}

macro_rules! audit {
// ^^^^^^^^^^^^^^^^^^^^ definition macro audit [69:0-73:1]
    ($e:expr) => {
        format::audit_line($e)
    };
}

#[cfg(feature = "audit")]
// ^^^^^^^^^^^^^^^^^^^^^^^^^ definition function audited [75:0-78:1]
pub fn audited(acc: &Account) -> String {
    audit!(acc.balance())
}

#[cfg(test)]
// ^^^^^^^^^^^^ definition module tests [80:0-90:1]
mod tests {
    use super::*;

    #[test]
//  ^^^^^^^ definition function tests::posts (to 89:5)
    fn posts() {
        let mut a = Account::open("cash");
//                  ^^^^^^^^^^^^^ reference calls Account::open (from tests::posts)
        a.post(Posting::Credit(5)).unwrap();
//      ^^^^^^ reference calls post (from tests::posts)
//      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ reference calls unwrap (from tests::posts)
//             ^^^^^^^^^^^^^^^ reference calls Posting::Credit (from tests::posts)
        assert_eq!(a.balance(), 5);
    }
}
// ----- travsr snapshot: src/lib.rs (rust, phase A, status ok) -----
// node file <file> (lib.rs)
// reference types Account (from audited) (no range)
// reference types Cents (from Account::balance) (no range)
// reference types Cents (from LIMIT) (no range)
// reference types Cents (from Posting::Credit) (no range)
// reference types Cents (from Posting::Debit) (no range)
// reference types Cents (from Posting::amount) (no range)
// reference types Cents (from balances) (no range)
// reference types HashMap (from balances) (no range)
// reference types Posting (from Account) (no range)
// reference types Posting (from Account::post) (no range)
// reference types Result (from Account::post) (no range)
// reference types Store (from balances) (no range)
// reference types String (from Account) (no range)
// reference types String (from Account::post) (no range)
// reference types String (from audited) (no range)
// reference types String (from balances) (no range)
// reference types Vec (from Account) (no range)
// skeleton <module>: "A small ledger: accounts, postings and a store behind a trait."
// skeleton Account: "/// An account and its postings.\n#[derive(Debug, Clone)]\npub struct Account { pub name: String, postings: Vec<Posting>, }"
// skeleton Account::balance: "pub fn balance(&self) -> Cents"
// skeleton Account::name: "pub name: String"
// skeleton Account::open: "/// Opens an empty account.\npub fn open(name: &str) -> Self"
// skeleton Account::post: "pub fn post(&mut self, p: Posting) -> Result<(), String>"
// skeleton Account::postings: "postings: Vec<Posting>"
// skeleton Cents: "/// Money in cents.\npub type Cents = i64;"
// skeleton LIMIT: "/// The largest posting accepted.\npub const LIMIT: Cents = 1_000_000;"
// skeleton Posting: "/// One movement of money.\n#[derive(Debug, Clone, Copy)]\npub enum Posting { Credit(Cents), Debit(Cents), Void, }"
// skeleton Posting::Credit: "Credit(Cents)"
// skeleton Posting::Debit: "Debit(Cents)"
// skeleton Posting::Void: "Void"
// skeleton Posting::amount: "pub fn amount(&self) -> Cents"
// skeleton audit: "macro_rules! audit"
// skeleton audited: "#[cfg(feature = \"audit\")]\npub fn audited(acc: &Account) -> String"
// skeleton balances: "/// Balances of every account in a store.\npub fn balances<S: Store>(store: &S) -> HashMap<String, Cents>"
// skeleton format: "mod format;"
// skeleton store: "pub mod store;"
// skeleton tests: "#[cfg(test)]\nmod tests"
// skeleton tests::posts: "#[test]\nfn posts()"
// edge contains <file> -> <module> (confidence 1, phase-a)
// edge contains <module> -> Account (confidence 1, phase-a)
// edge contains <module> -> Cents (confidence 1, phase-a)
// edge contains <module> -> LIMIT (confidence 1, phase-a)
// edge contains <module> -> Posting (confidence 1, phase-a)
// edge contains <module> -> audit (confidence 1, phase-a)
// edge contains <module> -> audited (confidence 1, phase-a)
// edge contains <module> -> balances (confidence 1, phase-a)
// edge contains <module> -> format (confidence 1, phase-a)
// edge contains <module> -> store (confidence 1, phase-a)
// edge contains <module> -> tests (confidence 1, phase-a)
// edge contains Account -> Account::balance (confidence 1, phase-a)
// edge contains Account -> Account::name (confidence 1, phase-a)
// edge contains Account -> Account::open (confidence 1, phase-a)
// edge contains Account -> Account::post (confidence 1, phase-a)
// edge contains Account -> Account::postings (confidence 1, phase-a)
// edge contains Posting -> Posting::Credit (confidence 1, phase-a)
// edge contains Posting -> Posting::Debit (confidence 1, phase-a)
// edge contains Posting -> Posting::Void (confidence 1, phase-a)
// edge contains Posting -> Posting::amount (confidence 1, phase-a)
// edge contains tests -> tests::posts (confidence 1, phase-a)
