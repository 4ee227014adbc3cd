# A Python 2 module: print statements and the old except syntax.
# ^ definition module <module> (name report2) [1:0-1:0]
from billing import Book
# ^^^^^^^^^^^^^^^^^^^^^^^^ reference imports billing.Book [2:0-2:24]


def report(ledger):
# ^^^^^^^^^^^^^^^^^^^ definition function report [5:0-9:29]
    try:
        print "total:", ledger.post(None)
#                              ^^^^ reference calls ledger.post (from report)
    except ValueError, e:
        print >>sys.stderr, e


class Printer(object):
# ^^^^^^^^^^^^^^^^^^^^^^ definition class Printer [12:0-14:18]
#             ^^^^^^ reference inherits object (from Printer)
    def show(self, text):
#   ^^^^^^^^^^^^^^^^^^^^^ definition method Printer.show (to 14:18)
        print text
# ----- travsr snapshot: legacy/report2.py (python, phase A, status ok) -----
# node file <file> (report2.py)
# skeleton Printer.show: "def show(self, text):"
# skeleton Printer: "class Printer(object):"
# skeleton report: "def report(ledger):"
# edge contains <file> -> <module> (confidence 1, phase-a)
# edge contains <module> -> Printer (confidence 1, phase-a)
# edge contains <module> -> report (confidence 1, phase-a)
# edge contains Printer -> Printer.show (confidence 1, phase-a)
