import threading

__all__ = ["Inventory", "reserve"]


class Inventory(dict):
    lock = threading.Lock()

    def available(self, sku):
        return self.get(sku, 0)


def reserve(inventory, sku, quantity):
    with inventory.lock:
        if inventory.available(sku) < quantity:
            return False
        inventory[sku] -= quantity
        return True


lambda_handler = lambda event, context: reserve(Inventory(), event["sku"], 1)
