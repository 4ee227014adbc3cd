module Mailer
  def broken
    <<~TEXT
      a heredoc that never ends
