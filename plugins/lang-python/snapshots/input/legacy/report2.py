# A Python 2 module: print statements and the old except syntax.
from billing import Book


def report(ledger):
    try:
        print "total:", ledger.post(None)
    except ValueError, e:
        print >>sys.stderr, e


class Printer(object):
    def show(self, text):
        print text
