defmodule Broken do
  @doc """
  heredoc never closed #{interp
