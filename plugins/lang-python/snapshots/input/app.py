"""Command-line entry point."""

import sys

from billing import Book, LineItem


def main(argv=sys.argv):
    book = Book()
    inv = book.open("inv-1", [{"name": "tea", "price": 3.5}])
    item = LineItem("cake", 2.0, quantity=2)
    print(item.total, inv.in_cents())
    return dispatch(argv)


def dispatch(argv):
    handler = pick(argv)
    return handler.run()


def pick(argv):
    return None


if __name__ == "__main__":
    main()
