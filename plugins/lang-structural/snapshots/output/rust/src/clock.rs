use std::time::Instant;
//  ^^^^^^^^^^^^^^^^^^ reference imports std::time::Instant

pub trait Clock {
// ^^^^^^^^^^^^^^^^^ definition trait Clock [3:0-5:1]
    fn now(&self) -> Instant;
//  ^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Clock.now
}

pub type Millis = u64;
// ^^^^^^^^^^^^^^^^^^^^^^ definition type Millis [7:0-7:22]

pub fn now() -> Instant {
// ^^^^^^^^^^^^^^^^^^^^^^^^^ definition function now [9:0-11:1]
    Instant::now()
//  ^^^^^^^^^^^^ reference calls Instant::now (from now)
}
// ----- travsr snapshot: rust/src/clock.rs (bash, phase A, status ok) -----
// node file <file> (clock.rs)
// skeleton Clock.now: "fn now(&self) -> Instant;"
// skeleton Clock: "pub trait Clock"
// skeleton Millis: "pub type Millis = u64;"
// skeleton now: "pub fn now() -> Instant"
// edge contains <file> -> Clock (confidence 1, phase-a)
// edge contains <file> -> Millis (confidence 1, phase-a)
// edge contains <file> -> now (confidence 1, phase-a)
// edge contains Clock -> Clock.now (confidence 1, phase-a)
