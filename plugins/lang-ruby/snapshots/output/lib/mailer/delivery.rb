# frozen_string_literal: true

require "net/smtp"
#        ^^^^^^^^ reference imports net/smtp
require_relative "template"
#                 ^^^^^^^^ reference imports template

module Mailer
# ^^^^^^^^^^^^^ definition module Mailer [6:0-49:3]
  # Sends rendered messages over SMTP, retrying transient failures.
  class Delivery < Base
# ^^^^^^^^^^^^^^^^^^^^^ definition class Mailer.Delivery (to 48:5)
#                  ^^^^ reference inherits Base (from Mailer.Delivery)
    include Retryable
#           ^^^^^^^^^ reference inherits Retryable (from Mailer.Delivery)
    extend Forwardable
#          ^^^^^^^^^^^ reference inherits Forwardable (from Mailer.Delivery)

    MAX_ATTEMPTS = 3

    def_delegators :@config, :host, :port
#   ^^^^^^^^^^^^^^ reference calls def_delegators (from Mailer.Delivery)

    def initialize(config)
#   ^^^^^^^^^^^^^^^^^^^^^^ definition method Mailer.Delivery.initialize (to 19:7)
      @config = config
      @log = Logger.new($stderr)
#            ^^^^^^ reference calls Logger (from Mailer.Delivery.initialize)
    end

    def deliver(message, to:)
#   ^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Mailer.Delivery.deliver (to 27:7)
      body = Template.render(message.template, message.vars)
#                     ^^^^^^ reference calls Template.render (from Mailer.Delivery.deliver)
#                                    ^^^^^^^^ reference calls message.template (from Mailer.Delivery.deliver)
#                                                      ^^^^ reference calls message.vars (from Mailer.Delivery.deliver)
      with_retries(MAX_ATTEMPTS) do |attempt|
#     ^^^^^^^^^^^^ reference calls with_retries (from Mailer.Delivery.deliver)
        smtp.send_message(body, message.from, to)
#            ^^^^^^^^^^^^ reference calls smtp.send_message (from Mailer.Delivery.deliver)
#                                       ^^^^ reference calls message.from (from Mailer.Delivery.deliver)
        @log.info "sent #{message.id} (attempt #{attempt})"
#            ^^^^ reference calls @log.info (from Mailer.Delivery.deliver)
#                                 ^^ reference calls message.id (from Mailer.Delivery.deliver)
      end
    end

    def self.default
#   ^^^^^^^^^^^^^^^^ definition method Mailer.Delivery.default (to 31:7)
      new(Config.load)
#                ^^^^ reference calls Config.load (from Mailer.Delivery.default)
    end

    class << self
      def from_env
#     ^^^^^^^^^^^^ definition method Mailer.Delivery.from_env (to 36:9)
        new(Config.new(ENV.fetch("SMTP_HOST")))
#           ^^^^^^ reference calls Config (from Mailer.Delivery.from_env)
#                          ^^^^^ reference calls ENV.fetch (from Mailer.Delivery.from_env)
      end
    end

    private

    def smtp
#   ^^^^^^^^ definition method Mailer.Delivery.smtp (to 43:7)
      @smtp ||= Net::SMTP.start(host, port)
#                         ^^^^^ reference calls Net::SMTP.start (from Mailer.Delivery.smtp)
    end

    HELP = <<~TEXT
      Delivery sends mail. Call #deliver with a message.
    TEXT
  end
end
# ----- travsr snapshot: lib/mailer/delivery.rb (ruby, phase A, status ok) -----
# node file <file> (delivery.rb)
# skeleton Mailer.Delivery.default: "def self.default"
# skeleton Mailer.Delivery.deliver: "def deliver(message, to:)"
# skeleton Mailer.Delivery.from_env: "def from_env"
# skeleton Mailer.Delivery.initialize: "def initialize(config)"
# skeleton Mailer.Delivery.smtp: "def smtp"
# skeleton Mailer.Delivery: "# Sends rendered messages over SMTP, retrying transient failures.\nclass Delivery < Base"
# skeleton Mailer: "module Mailer\n  # Sends rendered messages over SMTP, retrying transient failures."
# edge contains <file> -> Mailer (confidence 1, phase-a)
# edge contains Mailer -> Mailer.Delivery (confidence 1, phase-a)
# edge contains Mailer.Delivery -> Mailer.Delivery.default (confidence 1, phase-a)
# edge contains Mailer.Delivery -> Mailer.Delivery.deliver (confidence 1, phase-a)
# edge contains Mailer.Delivery -> Mailer.Delivery.from_env (confidence 1, phase-a)
# edge contains Mailer.Delivery -> Mailer.Delivery.initialize (confidence 1, phase-a)
# edge contains Mailer.Delivery -> Mailer.Delivery.smtp (confidence 1, phase-a)
