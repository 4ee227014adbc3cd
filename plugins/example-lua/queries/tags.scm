; Tags for Lua (grammar: tree-sitter-lua as shipped in tree-sitter-wasms@0.1.13).
;
; Each pattern captures a role and a @name:
;   @definition.<kind>  the whole definition; <kind> becomes the node kind (function, method, …)
;   @reference.<kind>   a use; call → a `calls` ref, import → an `imports` ref
; The SDK nests definitions by their ranges to build qualified names and `contains` edges.
; Names are kept as written (`M.parse`, `Stack:push`); the node's short name is the last part.

; ---- definitions ----

; function parse() … end   /   function M.parse() … end   /   function a.b.c() … end
(function_definition_statement
  name: [
    (identifier)
    (variable table: (_) field: (identifier))
  ] @name) @definition.function

; function Stack:push(x) … end   (a method: it receives `self`)
(function_definition_statement
  name: (variable method: (identifier)) @name) @definition.method

; local function trim(s) … end
(local_function_definition_statement
  name: (identifier) @name) @definition.function

; local handler = function(event) … end   (one name, one function value)
(local_variable_declaration
  (variable_list . (variable name: (identifier) @name) .)
  (expression_list . value: (function_definition) .)) @definition.function

; handler = function() … end   /   M.handler = function() … end
(variable_assignment
  (variable_list . (variable) @name .)
  (expression_list . value: (function_definition) .)) @definition.function

; return { parse = function(s) … end }   (a module's exports, at the top level of the file)
(chunk
  (return_statement
    (expression_list
      (table
        (field_list
          (field
            key: (identifier) @name
            value: (function_definition)) @definition.function)))))

; ---- references ----

; require("app.config")   /   require "app.config"   /   require [[app.config]]
(call
  function: (variable name: (identifier) @_require)
  arguments: (argument_list [
    (string) @name
    (expression_list . (string) @name .)
  ])
  (#eq? @_require "require")) @reference.import

; print(x)   (any plain name except require, which is an import)
(call
  function: (variable name: (identifier) @name)
  (#not-eq? @name "require")) @reference.call

; json.decode(s)   /   self:emit(event)   /   a.b.c()   (named as written)
(call
  function: (variable
    table: [(identifier) (variable)]) @name) @reference.call

; make():close()   /   ("x"):upper()   (the receiver is an expression: only the member name)
(call
  function: (variable
    table: [(call) (parenthesized_expression) (string) (table)]
    [
      field: (identifier) @name
      method: (identifier) @name
    ])) @reference.call
