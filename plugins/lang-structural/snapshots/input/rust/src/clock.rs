use std::time::Instant;

pub trait Clock {
    fn now(&self) -> Instant;
}

pub type Millis = u64;

pub fn now() -> Instant {
    Instant::now()
}
