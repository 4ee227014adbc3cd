package ledger

var s = `raw string never closed
