defmodule Broken do
# ^^^^^^^^^^^^^^^^ definition module Broken [1:0-1:16]
#                ^^ diagnostic warning PARSE_ERRORS: 1 syntax error (1 ERROR node); definitions in the broken region may be missing (to 3:31)
  @doc """
  heredoc never closed #{interp
# ----- travsr snapshot: elixir/lib/chat/unfinished.ex (bash, phase A, status ok) -----
# node file <file> (unfinished.ex)
# skeleton Broken: "defmodule Broken do"
# edge contains <file> -> Broken (confidence 1, phase-a)
