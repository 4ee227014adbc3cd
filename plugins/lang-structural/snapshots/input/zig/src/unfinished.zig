const s =
    \\multi-line string
    \\without the rest
