def broken(x:
# ^^^^^^^^^^^^^ diagnostic warning PARSE_ERRORS: 2 syntax errors (2 ERROR nodes); definitions in the broken region may be missing [1:0-2:26]
    return """never closed
# ----- travsr snapshot: python/shop/unfinished.py (bash, phase A, status ok) -----
# node file <file> (unfinished.py)
