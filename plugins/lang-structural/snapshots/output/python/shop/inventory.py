import threading
#      ^^^^^^^^^ reference imports threading

__all__ = ["Inventory", "reserve"]


class Inventory(dict):
# ^^^^^^^^^^^^^^^^^^^^^^ definition class Inventory [6:0-10:31]
#               ^^^^ reference inherits dict (from Inventory)
    lock = threading.Lock()
#          ^^^^^^^^^^^^^^ reference calls threading.Lock (from Inventory)

    def available(self, sku):
#   ^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Inventory.available (to 10:31)
        return self.get(sku, 0)
#              ^^^^^^^^ reference calls self.get (from Inventory.available)


def reserve(inventory, sku, quantity):
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function reserve [13:0-18:19]
    with inventory.lock:
        if inventory.available(sku) < quantity:
#          ^^^^^^^^^^^^^^^^^^^ reference calls inventory.available (from reserve)
            return False
        inventory[sku] -= quantity
        return True


lambda_handler = lambda event, context: reserve(Inventory(), event["sku"], 1)
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function lambda_handler [21:0-21:77]
#                                       ^^^^^^^ reference calls reserve (from lambda_handler)
#                                               ^^^^^^^^^ reference calls Inventory (from lambda_handler)
# ----- travsr snapshot: python/shop/inventory.py (bash, phase A, status ok) -----
# node file <file> (inventory.py)
# skeleton Inventory.available: "def available(self, sku):"
# skeleton Inventory: "class Inventory(dict):"
# skeleton lambda_handler: "lambda_handler = lambda event, context:"
# skeleton reserve: "def reserve(inventory, sku, quantity):"
# edge contains <file> -> Inventory (confidence 1, phase-a)
# edge contains <file> -> lambda_handler (confidence 1, phase-a)
# edge contains <file> -> reserve (confidence 1, phase-a)
# edge contains Inventory -> Inventory.available (confidence 1, phase-a)
