from typing import Optional

from . import invoice
from .base import Record
from .invoice import Invoice


class Ledger:
    def __init__(self):
        self.entries: dict[str, Invoice] = {}

    def post(self, inv: Invoice) -> float:
        inv.save(self.entries)
        return inv.total()

    def open(self, ident: str, lines: list) -> Invoice:
        created = invoice.Invoice(ident, lines)
        self.post(created)
        return created

    def find(self, ident: str) -> Optional[Invoice]:
        return self.entries.get(ident)

    def describe_all(self):
        return [record.describe() for record in self.entries.values() if isinstance(record, Record)]
