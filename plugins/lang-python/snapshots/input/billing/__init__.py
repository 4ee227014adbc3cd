"""Invoices and the ledger they are posted to."""

from .invoice import Invoice, LineItem
from .ledger import Ledger as Book

__all__ = ["Invoice", "LineItem", "Book"]
