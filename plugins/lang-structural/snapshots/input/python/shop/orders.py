"""Order handling for the shop: pricing, validation and persistence."""
from __future__ import annotations

import logging
import os.path as osp
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Iterable

from .inventory import Inventory, reserve
from . import events

log = logging.getLogger(__name__)
TAX_RATE = Decimal("0.2")


class OrderError(Exception):
    """Raised when an order cannot be placed."""


@dataclass
class Line:
    sku: str
    quantity: int
    unit_price: Decimal = field(default=Decimal(0))

    @property
    def total(self) -> Decimal:
        return self.unit_price * self.quantity


class Order(events.Publisher, metaclass=events.Registered):
    def __init__(self, customer: str, lines: Iterable[Line] = ()) -> None:
        super().__init__()
        self.customer = customer
        self.lines = list(lines)

    def subtotal(self) -> Decimal:
        return sum((line.total for line in self.lines), Decimal(0))

    async def place(self, inventory: Inventory) -> None:
        for line in self.lines:
            if not reserve(inventory, line.sku, line.quantity):
                raise OrderError(f"out of stock: {line.sku}")
        self.publish("order.placed", total=self.subtotal() * (1 + TAX_RATE))
        log.info("placed order for %s", self.customer)

    class Meta:
        ordering = ["customer"]


def export_path(base: str, order: Order) -> str:
    def slug(text: str) -> str:
        return "-".join(text.lower().split())

    return osp.join(base, slug(order.customer) + ".json")
