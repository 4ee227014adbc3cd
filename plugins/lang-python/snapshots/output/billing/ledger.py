from typing import Optional
# ^ definition module <module> (name ledger) [1:0-1:0]
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^ reference imports typing.Optional [1:0-1:27]

from . import invoice
# ^^^^^^^^^^^^^^^^^^^^^ reference imports .invoice [3:0-3:21]
from .base import Record
# ^^^^^^^^^^^^^^^^^^^^^^^^ reference imports .base.Record [4:0-4:24]
from .invoice import Invoice
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ reference imports .invoice.Invoice [5:0-5:28]


class Ledger:
# ^^^^^^^^^^^^^ definition class Ledger [8:0-25:100]
    def __init__(self):
#   ^^^^^^^^^^^^^^^^^^^ definition method Ledger.__init__ (to 10:45)
        self.entries: dict[str, Invoice] = {}

    def post(self, inv: Invoice) -> float:
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Ledger.post (to 14:26)
#                       ^^^^^^^ reference types Invoice (from Ledger.post)
#                                   ^^^^^ reference types float (from Ledger.post)
        inv.save(self.entries)
#           ^^^^ reference calls inv.save (from Ledger.post)
        return inv.total()
#                  ^^^^^ reference calls inv.total (from Ledger.post)

    def open(self, ident: str, lines: list) -> Invoice:
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Ledger.open (to 19:22)
#                         ^^^ reference types str (from Ledger.open)
#                                     ^^^^ reference types list (from Ledger.open)
#                                              ^^^^^^^ reference types Invoice (from Ledger.open)
        created = invoice.Invoice(ident, lines)
#                         ^^^^^^^ reference calls invoice.Invoice (from Ledger.open)
        self.post(created)
#            ^^^^ reference calls self.post (from Ledger.open)
        return created

    def find(self, ident: str) -> Optional[Invoice]:
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Ledger.find (to 22:38)
#                         ^^^ reference types str (from Ledger.find)
#                                 ^^^^^^^^^^^^^^^^^ reference types Optional (from Ledger.find)
        return self.entries.get(ident)
#                           ^^^ reference calls self.entries.get (from Ledger.find)

    def describe_all(self):
#   ^^^^^^^^^^^^^^^^^^^^^^^ definition method Ledger.describe_all (to 25:100)
        return [record.describe() for record in self.entries.values() if isinstance(record, Record)]
#                      ^^^^^^^^ reference calls record.describe (from Ledger.describe_all)
#                                                            ^^^^^^ reference calls self.entries.values (from Ledger.describe_all)
#                                                                        ^^^^^^^^^^ reference calls isinstance (from Ledger.describe_all)
# ----- travsr snapshot: billing/ledger.py (python, phase A, status ok) -----
# node file <file> (ledger.py)
# skeleton Ledger.__init__: "def __init__(self):"
# skeleton Ledger.describe_all: "def describe_all(self):"
# skeleton Ledger.find: "def find(self, ident: str) -> Optional[Invoice]:"
# skeleton Ledger.open: "def open(self, ident: str, lines: list) -> Invoice:"
# skeleton Ledger.post: "def post(self, inv: Invoice) -> float:"
# skeleton Ledger: "class Ledger:"
# edge contains <file> -> <module> (confidence 1, phase-a)
# edge contains <module> -> Ledger (confidence 1, phase-a)
# edge contains Ledger -> Ledger.__init__ (confidence 1, phase-a)
# edge contains Ledger -> Ledger.describe_all (confidence 1, phase-a)
# edge contains Ledger -> Ledger.find (confidence 1, phase-a)
# edge contains Ledger -> Ledger.open (confidence 1, phase-a)
# edge contains Ledger -> Ledger.post (confidence 1, phase-a)
