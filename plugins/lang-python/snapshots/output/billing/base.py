"""Shared pieces of the billing package."""
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition module <module> (name base) [1:0-1:43]

import functools
#      ^^^^^^^^^ reference imports functools

TAX_RATE = 0.2
# ^^^^^^^^^^^^^^ definition constant TAX_RATE [5:0-5:14]
CURRENCY: str = "EUR"
# ^^^^^^^^^^^^^^^^^^^^^ definition constant CURRENCY [6:0-6:21]


def audited(fn):
# ^^^^^^^^^^^^^^^^ definition function audited [9:0-17:18]
    """Records every call of ``fn`` in the audit trail."""

    @functools.wraps(fn)
#              ^^^^^ reference calls functools.wraps (from audited)
    def wrapper(*args, **kwargs):
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function audited.wrapper (to 15:34)
        AUDIT_TRAIL.append(fn.__name__)
#                   ^^^^^^ reference calls AUDIT_TRAIL.append (from audited.wrapper)
        return fn(*args, **kwargs)
#              ^^ reference calls fn (from audited.wrapper)

    return wrapper


AUDIT_TRAIL = []
# ^^^^^^^^^^^^^^^^ definition constant AUDIT_TRAIL [20:0-20:16]


class Record:
# ^^^^^^^^^^^^^ definition class Record [23:0-36:25]
    """Something with an id that can be saved."""

    kind = "record"
#   ^^^^^^^^^^^^^^^ definition field Record.kind

    def __init__(self, ident):
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Record.__init__ (to 29:26)
        self.ident = ident

    def describe(self):
#   ^^^^^^^^^^^^^^^^^^^ definition method Record.describe (to 32:42)
        return f"{self.kind} {self.ident}"

    def save(self, store):
#   ^^^^^^^^^^^^^^^^^^^^^^ definition method Record.save (to 36:25)
        store[self.ident] = self
        return self.ident
# ----- travsr snapshot: billing/base.py (python, phase A, status ok) -----
# node file <file> (base.py)
# skeleton <module>: "\"\"\"Shared pieces of the billing package.\"\"\""
# skeleton AUDIT_TRAIL: "AUDIT_TRAIL = []"
# skeleton CURRENCY: "CURRENCY: str = \"EUR\""
# skeleton Record.__init__: "def __init__(self, ident):"
# skeleton Record.describe: "def describe(self):"
# skeleton Record.kind: "kind = \"record\""
# skeleton Record.save: "def save(self, store):"
# skeleton Record: "class Record:\n    \"\"\"Something with an id that can be saved.\"\"\""
# skeleton TAX_RATE: "TAX_RATE = 0.2"
# skeleton audited.wrapper: "@functools.wraps(fn)\n    def wrapper(*args, **kwargs):"
# skeleton audited: "def audited(fn):\n    \"\"\"Records every call of ``fn`` in the audit trail.\"\"\""
# edge contains <file> -> <module> (confidence 1, phase-a)
# edge contains <module> -> AUDIT_TRAIL (confidence 1, phase-a)
# edge contains <module> -> CURRENCY (confidence 1, phase-a)
# edge contains <module> -> Record (confidence 1, phase-a)
# edge contains <module> -> TAX_RATE (confidence 1, phase-a)
# edge contains <module> -> audited (confidence 1, phase-a)
# edge contains Record -> Record.__init__ (confidence 1, phase-a)
# edge contains Record -> Record.describe (confidence 1, phase-a)
# edge contains Record -> Record.kind (confidence 1, phase-a)
# edge contains Record -> Record.save (confidence 1, phase-a)
# edge contains audited -> audited.wrapper (confidence 1, phase-a)
