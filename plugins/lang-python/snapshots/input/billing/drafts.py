from .invoice import Invoice


class Draft(Invoice):
    def total(self) -> float:
        return 0.0

    def preview(self):
        return self.describe(

    def discard(self):
        return None
