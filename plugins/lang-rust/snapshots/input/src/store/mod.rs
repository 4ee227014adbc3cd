//! Where accounts live.
mod memory;

pub use memory::Memory;

use crate::Account;

/// A place accounts are kept.
pub trait Store {
    fn load(&self, name: &str) -> Option<Account>;
    fn names(&self) -> Vec<String>;
    /// Whether the store holds an account.
    fn has(&self, name: &str) -> bool {
        self.load(name).is_some()
    }
}
