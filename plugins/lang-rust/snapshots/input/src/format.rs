use crate::Cents;

pub(crate) fn too_large(amount: Cents) -> String {
    format!("{} is over the limit of {}", amount, crate::LIMIT)
}

pub(crate) fn audit_line(balance: Cents) -> String {
    format!("audit: {}", balance)
}
