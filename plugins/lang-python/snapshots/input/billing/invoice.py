from dataclasses import dataclass

from .base import TAX_RATE, Record, audited

cents = lambda amount: round(amount * 100)


@dataclass
class LineItem:
    name: str
    price: float
    quantity: int = 1

    @property
    def total(self) -> float:
        return self.price * self.quantity

    @classmethod
    def from_dict(cls, data: dict) -> "LineItem":
        return cls(data["name"], data["price"], data.get("quantity", 1))

    @staticmethod
    def rounded(value: float) -> float:
        return round(value, 2)


class Invoice(Record):
    """An invoice: line items and the tax on them."""

    kind = "invoice"

    def __init__(self, ident, lines=None):
        super().__init__(ident)
        self.lines: list[LineItem] = [LineItem.from_dict(d) for d in lines or []]

    @audited
    def subtotal(self) -> float:
        return sum(line.total for line in self.lines)

    def total(self) -> float:
        def with_tax(amount):
            return amount * (1 + TAX_RATE)

        return LineItem.rounded(with_tax(self.subtotal()))

    def in_cents(self) -> int:
        return cents(self.total())
