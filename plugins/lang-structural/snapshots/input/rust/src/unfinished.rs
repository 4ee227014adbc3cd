/* a block comment /* nested
fn broken() { let s = r##"never closed
