"""Order handling for the shop: pricing, validation and persistence."""
from __future__ import annotations

import logging
#      ^^^^^^^ reference imports logging
import os.path as osp
#      ^^^^^^^ reference imports os.path
from dataclasses import dataclass, field
#                       ^^^^^^^^^ reference imports dataclasses.dataclass
#                                  ^^^^^ reference imports dataclasses.field
from decimal import Decimal
#                   ^^^^^^^ reference imports decimal.Decimal
from typing import Iterable
#                  ^^^^^^^^ reference imports typing.Iterable

from .inventory import Inventory, reserve
#                      ^^^^^^^^^ reference imports .inventory.Inventory
#                                 ^^^^^^^ reference imports .inventory.reserve
from . import events
#             ^^^^^^ reference imports .events

log = logging.getLogger(__name__)
#     ^^^^^^^^^^^^^^^^^ reference calls logging.getLogger
TAX_RATE = Decimal("0.2")
#          ^^^^^^^ reference calls Decimal


class OrderError(Exception):
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition class OrderError [17:0-18:48]
#                ^^^^^^^^^ reference inherits Exception (from OrderError)
    """Raised when an order cannot be placed."""


@dataclass
class Line:
# ^^^^^^^^^^^ definition class Line [22:0-29:46]
    sku: str
    quantity: int
    unit_price: Decimal = field(default=Decimal(0))
#                         ^^^^^ reference calls field (from Line)
#                                       ^^^^^^^ reference calls Decimal (from Line)

    @property
    def total(self) -> Decimal:
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Line.total (to 29:46)
        return self.unit_price * self.quantity


class Order(events.Publisher, metaclass=events.Registered):
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition class Order [32:0-49:31]
#           ^^^^^^^^^^^^^^^^ reference inherits events.Publisher (from Order)
    def __init__(self, customer: str, lines: Iterable[Line] = ()) -> None:
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Order.__init__ (to 36:32)
        super().__init__()
#       ^^^^^ reference calls super (from Order.__init__)
#               ^^^^^^^^ reference calls __init__ (from Order.__init__)
        self.customer = customer
        self.lines = list(lines)
#                    ^^^^ reference calls list (from Order.__init__)

    def subtotal(self) -> Decimal:
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Order.subtotal (to 39:67)
        return sum((line.total for line in self.lines), Decimal(0))
#              ^^^ reference calls sum (from Order.subtotal)
#                                                       ^^^^^^^ reference calls Decimal (from Order.subtotal)

    async def place(self, inventory: Inventory) -> None:
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Order.place (to 46:54)
        for line in self.lines:
            if not reserve(inventory, line.sku, line.quantity):
#                  ^^^^^^^ reference calls reserve (from Order.place)
                raise OrderError(f"out of stock: {line.sku}")
#                     ^^^^^^^^^^ reference calls OrderError (from Order.place)
        self.publish("order.placed", total=self.subtotal() * (1 + TAX_RATE))
#       ^^^^^^^^^^^^ reference calls self.publish (from Order.place)
#                                          ^^^^^^^^^^^^^ reference calls self.subtotal (from Order.place)
        log.info("placed order for %s", self.customer)
#       ^^^^^^^^ reference calls log.info (from Order.place)

    class Meta:
#   ^^^^^^^^^^^ definition class Order.Meta (to 49:31)
        ordering = ["customer"]


def export_path(base: str, order: Order) -> str:
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function export_path [52:0-56:57]
    def slug(text: str) -> str:
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function export_path.slug (to 54:45)
        return "-".join(text.lower().split())
#                  ^^^^ reference calls join (from export_path.slug)
#                       ^^^^^^^^^^ reference calls text.lower (from export_path.slug)
#                                    ^^^^^ reference calls split (from export_path.slug)

    return osp.join(base, slug(order.customer) + ".json")
#          ^^^^^^^^ reference calls osp.join (from export_path)
#                         ^^^^ reference calls slug (from export_path)
# ----- travsr snapshot: python/shop/orders.py (bash, phase A, status ok) -----
# node file <file> (orders.py)
# skeleton Line.total: "def total(self) -> Decimal:"
# skeleton Line: "class Line:"
# skeleton Order.Meta: "class Meta:"
# skeleton Order.__init__: "def __init__(self, customer: str, lines: Iterable[Line] = ()) -> None:"
# skeleton Order.place: "async def place(self, inventory: Inventory) -> None:"
# skeleton Order.subtotal: "def subtotal(self) -> Decimal:"
# skeleton Order: "class Order(events.Publisher, metaclass=events.Registered):"
# skeleton OrderError: "\"\"\"Raised when an order cannot be placed.\"\"\"\nclass OrderError(Exception):"
# skeleton export_path.slug: "def slug(text: str) -> str:"
# skeleton export_path: "def export_path(base: str, order: Order) -> str:"
# edge contains <file> -> Line (confidence 1, phase-a)
# edge contains <file> -> Order (confidence 1, phase-a)
# edge contains <file> -> OrderError (confidence 1, phase-a)
# edge contains <file> -> export_path (confidence 1, phase-a)
# edge contains Line -> Line.total (confidence 1, phase-a)
# edge contains Order -> Order.Meta (confidence 1, phase-a)
# edge contains Order -> Order.__init__ (confidence 1, phase-a)
# edge contains Order -> Order.place (confidence 1, phase-a)
# edge contains Order -> Order.subtotal (confidence 1, phase-a)
# edge contains export_path -> export_path.slug (confidence 1, phase-a)
