from .invoice import Invoice
# ^ definition module <module> (name drafts) [1:0-1:0]
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ reference imports .invoice.Invoice [1:0-1:28]


class Draft(Invoice):
# ^^^^^^^^^^^^^^^^^^^^^ definition class Draft [4:0-12:19]
#           ^^^^^^^ reference inherits Invoice (from Draft)
    def total(self) -> float:
#   ^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Draft.total (to 6:18)
#                      ^^^^^ reference types float (from Draft.total)
        return 0.0

    def preview(self):
#   ^^^^^^^^^^^^^^^^^^ definition method Draft.preview (to 12:19)
        return self.describe(
#       ^^^^^^^^^^^^^^^^^^^^^ diagnostic warning PARSE_ERRORS: 2 syntax errors (2 ERROR nodes); definitions in the broken region may be missing (to 12:19)

    def discard(self):
        return None
# ----- travsr snapshot: billing/drafts.py (python, phase A, status ok) -----
# node file <file> (drafts.py)
# skeleton Draft.preview: "def preview(self):\n        return self.describe(\n\n    def discard(self):\n        return None"
# skeleton Draft.total: "def total(self) -> float:"
# skeleton Draft: "class Draft(Invoice):"
# edge contains <file> -> <module> (confidence 1, phase-a)
# edge contains <module> -> Draft (confidence 1, phase-a)
# edge contains Draft -> Draft.preview (confidence 1, phase-a)
# edge contains Draft -> Draft.total (confidence 1, phase-a)
