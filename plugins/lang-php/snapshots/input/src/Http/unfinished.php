<?php
function broken() {
    $text = <<<EOT
    never closed
