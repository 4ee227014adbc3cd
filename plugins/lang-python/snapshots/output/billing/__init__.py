"""Invoices and the ledger they are posted to."""
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition module <module> (name billing) [1:0-1:49]

from .invoice import Invoice, LineItem
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ reference imports .invoice.Invoice [3:0-3:38]
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ reference imports .invoice.LineItem [3:0-3:38]
from .ledger import Ledger as Book
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ reference imports .ledger.Ledger [4:0-4:34]

__all__ = ["Invoice", "LineItem", "Book"]
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition variable __all__ [6:0-6:41]
# ----- travsr snapshot: billing/__init__.py (python, phase A, status ok) -----
# node file <file> (__init__.py)
# skeleton <module>: "\"\"\"Invoices and the ledger they are posted to.\"\"\""
# skeleton __all__: "__all__ = [\"Invoice\", \"LineItem\", \"Book\"]"
# edge contains <file> -> <module> (confidence 1, phase-a)
# edge contains <module> -> __all__ (confidence 1, phase-a)
