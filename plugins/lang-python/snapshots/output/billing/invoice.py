from dataclasses import dataclass
# ^ definition module <module> (name invoice) [1:0-1:0]
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ reference imports dataclasses.dataclass [1:0-1:33]

from .base import TAX_RATE, Record, audited
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ reference imports .base.audited [3:0-3:43]
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ reference imports .base.Record [3:0-3:43]
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ reference imports .base.TAX_RATE [3:0-3:43]

cents = lambda amount: round(amount * 100)
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function cents [5:0-5:42]
#                      ^^^^^ reference calls round (from cents)


@dataclass
#^^^^^^^^^ reference calls dataclass (from <module>)
class LineItem:
# ^^^^^^^^^^^^^^^ definition class LineItem [9:0-24:30]
    name: str
#   ^^^^^^^^^ definition field LineItem.name
    price: float
#   ^^^^^^^^^^^^ definition field LineItem.price
    quantity: int = 1
#   ^^^^^^^^^^^^^^^^^ definition field LineItem.quantity

    @property
#    ^^^^^^^^ reference calls property (from LineItem)
    def total(self) -> float:
#   ^^^^^^^^^^^^^^^^^^^^^^^^^ definition property LineItem.total (to 16:41)
#                      ^^^^^ reference types float (from LineItem.total)
        return self.price * self.quantity

    @classmethod
#    ^^^^^^^^^^^ reference calls classmethod (from LineItem)
    def from_dict(cls, data: dict) -> "LineItem":
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method LineItem.from_dict (to 20:72)
#                            ^^^^ reference types dict (from LineItem.from_dict)
#                                     ^^^^^^^^^^ reference types LineItem (from LineItem.from_dict)
        return cls(data["name"], data["price"], data.get("quantity", 1))
#              ^^^ reference calls cls (from LineItem.from_dict)
#                                                    ^^^ reference calls data.get (from LineItem.from_dict)

    @staticmethod
#    ^^^^^^^^^^^^ reference calls staticmethod (from LineItem)
    def rounded(value: float) -> float:
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method LineItem.rounded (to 24:30)
#                      ^^^^^ reference types float (from LineItem.rounded)
#                                ^^^^^ reference types float (from LineItem.rounded)
        return round(value, 2)
#              ^^^^^ reference calls round (from LineItem.rounded)


class Invoice(Record):
# ^^^^^^^^^^^^^^^^^^^^^^ definition class Invoice [27:0-47:34]
#             ^^^^^^ reference inherits Record (from Invoice)
    """An invoice: line items and the tax on them."""

    kind = "invoice"
#   ^^^^^^^^^^^^^^^^ definition field Invoice.kind

    def __init__(self, ident, lines=None):
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Invoice.__init__ (to 34:81)
        super().__init__(ident)
#               ^^^^^^^^ reference calls __init__ (from Invoice.__init__)
        self.lines: list[LineItem] = [LineItem.from_dict(d) for d in lines or []]
#                                              ^^^^^^^^^ reference calls LineItem.from_dict (from Invoice.__init__)

    @audited
#    ^^^^^^^ reference calls audited (from Invoice)
    def subtotal(self) -> float:
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Invoice.subtotal (to 38:53)
#                         ^^^^^ reference types float (from Invoice.subtotal)
        return sum(line.total for line in self.lines)
#              ^^^ reference calls sum (from Invoice.subtotal)

    def total(self) -> float:
#   ^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Invoice.total (to 44:58)
#                      ^^^^^ reference types float (from Invoice.total)
        def with_tax(amount):
#       ^^^^^^^^^^^^^^^^^^^^^ definition function Invoice.total.with_tax (to 42:42)
            return amount * (1 + TAX_RATE)

        return LineItem.rounded(with_tax(self.subtotal()))
#                       ^^^^^^^ reference calls LineItem.rounded (from Invoice.total)
#                               ^^^^^^^^ reference calls with_tax (from Invoice.total)
#                                             ^^^^^^^^ reference calls self.subtotal (from Invoice.total)

    def in_cents(self) -> int:
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Invoice.in_cents (to 47:34)
#                         ^^^ reference types int (from Invoice.in_cents)
        return cents(self.total())
#              ^^^^^ reference calls cents (from Invoice.in_cents)
#                         ^^^^^ reference calls self.total (from Invoice.in_cents)
# ----- travsr snapshot: billing/invoice.py (python, phase A, status ok) -----
# node file <file> (invoice.py)
# skeleton Invoice.__init__: "def __init__(self, ident, lines=None):"
# skeleton Invoice.in_cents: "def in_cents(self) -> int:"
# skeleton Invoice.kind: "kind = \"invoice\""
# skeleton Invoice.subtotal: "@audited\n    def subtotal(self) -> float:"
# skeleton Invoice.total.with_tax: "def with_tax(amount):"
# skeleton Invoice.total: "def total(self) -> float:"
# skeleton Invoice: "class Invoice(Record):\n    \"\"\"An invoice: line items and the tax on them.\"\"\""
# skeleton LineItem.from_dict: "@classmethod\n    def from_dict(cls, data: dict) -> \"LineItem\":"
# skeleton LineItem.name: "name: str"
# skeleton LineItem.price: "price: float"
# skeleton LineItem.quantity: "quantity: int = 1"
# skeleton LineItem.rounded: "@staticmethod\n    def rounded(value: float) -> float:"
# skeleton LineItem.total: "@property\n    def total(self) -> float:"
# skeleton LineItem: "@dataclass\nclass LineItem:"
# skeleton cents: "cents = lambda amount: round(amount * 100)"
# edge contains <file> -> <module> (confidence 1, phase-a)
# edge contains <module> -> Invoice (confidence 1, phase-a)
# edge contains <module> -> LineItem (confidence 1, phase-a)
# edge contains <module> -> cents (confidence 1, phase-a)
# edge contains Invoice -> Invoice.__init__ (confidence 1, phase-a)
# edge contains Invoice -> Invoice.in_cents (confidence 1, phase-a)
# edge contains Invoice -> Invoice.kind (confidence 1, phase-a)
# edge contains Invoice -> Invoice.subtotal (confidence 1, phase-a)
# edge contains Invoice -> Invoice.total (confidence 1, phase-a)
# edge contains Invoice.total -> Invoice.total.with_tax (confidence 1, phase-a)
# edge contains LineItem -> LineItem.from_dict (confidence 1, phase-a)
# edge contains LineItem -> LineItem.name (confidence 1, phase-a)
# edge contains LineItem -> LineItem.price (confidence 1, phase-a)
# edge contains LineItem -> LineItem.quantity (confidence 1, phase-a)
# edge contains LineItem -> LineItem.rounded (confidence 1, phase-a)
# edge contains LineItem -> LineItem.total (confidence 1, phase-a)
