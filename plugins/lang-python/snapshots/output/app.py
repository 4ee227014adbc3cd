"""Command-line entry point."""
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition module <module> (name app) [1:0-1:31]

import sys
#      ^^^ reference imports sys

from billing import Book, LineItem
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ reference imports billing.Book [5:0-5:34]
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ reference imports billing.LineItem [5:0-5:34]


def main(argv=sys.argv):
# ^^^^^^^^^^^^^^^^^^^^^^^^ definition function main [8:0-13:25]
    book = Book()
#          ^^^^ reference calls Book (from main)
    inv = book.open("inv-1", [{"name": "tea", "price": 3.5}])
#              ^^^^ reference calls book.open (from main)
    item = LineItem("cake", 2.0, quantity=2)
#          ^^^^^^^^ reference calls LineItem (from main)
    print(item.total, inv.in_cents())
#   ^^^^^ reference calls print (from main)
#                         ^^^^^^^^ reference calls inv.in_cents (from main)
    return dispatch(argv)
#          ^^^^^^^^ reference calls dispatch (from main)


def dispatch(argv):
# ^^^^^^^^^^^^^^^^^^^ definition function dispatch [16:0-18:24]
    handler = pick(argv)
#             ^^^^ reference calls pick (from dispatch)
    return handler.run()
#                  ^^^ reference calls handler.run (from dispatch)


def pick(argv):
# ^^^^^^^^^^^^^^^ definition function pick [21:0-22:15]
    return None


if __name__ == "__main__":
    main()
#   ^^^^ reference calls main (from <module>)
# ----- travsr snapshot: app.py (python, phase A, status ok) -----
# node file <file> (app.py)
# skeleton <module>: "\"\"\"Command-line entry point.\"\"\""
# skeleton dispatch: "def dispatch(argv):"
# skeleton main: "def main(argv=sys.argv):"
# skeleton pick: "def pick(argv):"
# edge contains <file> -> <module> (confidence 1, phase-a)
# edge contains <module> -> dispatch (confidence 1, phase-a)
# edge contains <module> -> main (confidence 1, phase-a)
# edge contains <module> -> pick (confidence 1, phase-a)
