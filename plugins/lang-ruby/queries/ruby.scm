; Tags for Ruby (tree-sitter-ruby as built in tree-sitter-wasms@0.1.13).
; Conventions: see README.md.

; ---- definitions ----

; def at the top of a file (a private method of Object: a function in all but name)
(program (method name: (_) @name) @definition.function)
(method name: (_) @name) @definition.method
; def self.default   (named without `self.`; nesting makes it Delivery.default)
(singleton_method name: (_) @name) @definition.method
(class name: [(constant) (scope_resolution)] @name) @definition.class
(module name: [(constant) (scope_resolution)] @name) @definition.module

; ---- references ----

; require "net/smtp"   require_relative "template"   load "tasks.rb"
(call
  method: (identifier) @_require
  arguments: (argument_list . (string (string_content) @name))
  (#any-of? @_require "require" "require_relative" "load" "autoload")) @reference.import

; class Delivery < Base
(superclass [(constant) (scope_resolution)] @name) @reference.inherits
; include Retryable   extend Forwardable   prepend Tracing   (mixins)
(call
  !receiver
  method: (identifier) @_mixin
  arguments: (argument_list [(constant) (scope_resolution)] @name)
  (#any-of? @_mixin "include" "extend" "prepend")) @reference.inherits

; Logger.new(io)   (a constructor call names the class)
(call
  receiver: [(constant) (scope_resolution)] @name
  method: (identifier) @_new
  (#eq? @_new "new")) @reference.call

; with_retries(3) { … }   (a bare name with neither arguments nor block is a local variable or a call: left out)
(call
  !receiver
  method: (identifier) @name
  (#not-any-of? @name "require" "require_relative" "load" "autoload" "include" "extend" "prepend" "new"
    "attr_reader" "attr_writer" "attr_accessor" "private" "protected" "public" "module_function" "raise" "puts" "p")) @reference.call
; Template.render(x)   smtp.send_message(x)   @log.info(x)   self.helper   Net::SMTP.start
(call
  receiver: [(constant) (scope_resolution) (identifier) (instance_variable) (class_variable) (self)] @qualifier
  method: (identifier) @name
  (#not-eq? @name "new")) @reference.call
; make.close   list.map(&:x).first   (the receiver is an expression: only the method name)
(call
  receiver: [(call) (parenthesized_statements) (array) (hash) (string) (element_reference)]
  method: (identifier) @name) @reference.call
