<?php
function broken() {
// ^^^^^^^^^^^^^^^^^^^ diagnostic warning PARSE_ERRORS: 1 syntax error (1 ERROR node); definitions in the broken region may be missing [2:0-5:0]
    $text = <<<EOT
    never closed
// ----- travsr snapshot: src/Http/unfinished.php (php, phase A, status ok) -----
// node file <file> (unfinished.php)
