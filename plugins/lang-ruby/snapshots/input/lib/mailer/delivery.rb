# frozen_string_literal: true

require "net/smtp"
require_relative "template"

module Mailer
  # Sends rendered messages over SMTP, retrying transient failures.
  class Delivery < Base
    include Retryable
    extend Forwardable

    MAX_ATTEMPTS = 3

    def_delegators :@config, :host, :port

    def initialize(config)
      @config = config
      @log = Logger.new($stderr)
    end

    def deliver(message, to:)
      body = Template.render(message.template, message.vars)
      with_retries(MAX_ATTEMPTS) do |attempt|
        smtp.send_message(body, message.from, to)
        @log.info "sent #{message.id} (attempt #{attempt})"
      end
    end

    def self.default
      new(Config.load)
    end

    class << self
      def from_env
        new(Config.new(ENV.fetch("SMTP_HOST")))
      end
    end

    private

    def smtp
      @smtp ||= Net::SMTP.start(host, port)
    end

    HELP = <<~TEXT
      Delivery sends mail. Call #deliver with a message.
    TEXT
  end
end
