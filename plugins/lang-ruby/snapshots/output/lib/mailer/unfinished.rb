module Mailer
# ^^^^^^^^^^^^^ diagnostic warning PARSE_ERRORS: 1 syntax error (1 ERROR node); definitions in the broken region may be missing [1:0-5:0]
  def broken
    <<~TEXT
      a heredoc that never ends
# ----- travsr snapshot: lib/mailer/unfinished.rb (ruby, phase A, status ok) -----
# node file <file> (unfinished.rb)
