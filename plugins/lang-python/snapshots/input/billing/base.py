"""Shared pieces of the billing package."""

import functools

TAX_RATE = 0.2
CURRENCY: str = "EUR"


def audited(fn):
    """Records every call of ``fn`` in the audit trail."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        AUDIT_TRAIL.append(fn.__name__)
        return fn(*args, **kwargs)

    return wrapper


AUDIT_TRAIL = []


class Record:
    """Something with an id that can be saved."""

    kind = "record"

    def __init__(self, ident):
        self.ident = ident

    def describe(self):
        return f"{self.kind} {self.ident}"

    def save(self, store):
        store[self.ident] = self
        return self.ident
