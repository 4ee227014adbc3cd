use crate::Cents;
// ^^^^^^^^^^^^^^^^^ definition module <module> (name format) [1:0-10:0]
// ^^^^^^^^^^^^^^^^^ reference imports crate::Cents [1:0-1:17]

pub(crate) fn too_large(amount: Cents) -> String {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function too_large [3:0-5:1]
    format!("{} is over the limit of {}", amount, crate::LIMIT)
}

pub(crate) fn audit_line(balance: Cents) -> String {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function audit_line [7:0-9:1]
    format!("audit: {}", balance)
}
// ----- travsr snapshot: src/format.rs (rust, phase A, status ok) -----
// node file <file> (format.rs)
// reference types Cents (from audit_line) (no range)
// reference types Cents (from too_large) (no range)
// reference types String (from audit_line) (no range)
// reference types String (from too_large) (no range)
// skeleton audit_line: "pub(crate) fn audit_line(balance: Cents) -> String"
// skeleton too_large: "pub(crate) fn too_large(amount: Cents) -> String"
// edge contains <file> -> <module> (confidence 1, phase-a)
// edge contains <module> -> audit_line (confidence 1, phase-a)
// edge contains <module> -> too_large (confidence 1, phase-a)
