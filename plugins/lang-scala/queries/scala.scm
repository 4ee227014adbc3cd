; Tags for Scala (tree-sitter-scala as built in tree-sitter-wasms@0.1.13: an old grammar that
; misses some Scala 2.13/3 syntax, e.g. `{ x => … }` lambdas and `extends Base(arg)`).
; Conventions: see README.md.

; ---- definitions ----

(class_definition name: (identifier) @name) @definition.class
(object_definition name: (identifier) @name) @definition.class
(trait_definition name: (identifier) @name) @definition.trait
(template_body [
  (function_definition name: (identifier) @name)
  (function_declaration name: (identifier) @name)
] @definition.method)
(function_definition name: (identifier) @name) @definition.function
(type_definition name: (type_identifier) @name) @definition.type

; ---- references ----

; import scala.concurrent.{ExecutionContext, Future}   import java.time.{Clock => JClock}   import a.b._
(import_declaration path: (_) @name .) @reference.import
(import_declaration path: (_) @name (wildcard)) @reference.import
(import_declaration
  path: (_) @qualifier
  (import_selectors [(identifier) @name (renamed_identifier name: (identifier) @name)])) @reference.import

; class Scheduler(…) extends Runnable with AutoCloseable
(extends_clause type: [(type_identifier) (stable_type_identifier) (generic_type)] @name) @reference.inherits
(extends_clause type: (compound_type [(type_identifier) (stable_type_identifier) (generic_type)] @name)) @reference.inherits

; log(m)   jobs.foreach(f)   JClock.systemUTC()   (the grammar reads `while (c) {…}` as a call: left out)
(call_expression
  function: (identifier) @name
  (#not-any-of? @name "while" "if" "for" "match" "try" "synchronized")) @reference.call
(call_expression function: (field_expression value: [(identifier) (field_expression)] @qualifier field: (identifier) @name)) @reference.call
(call_expression function: (field_expression value: [(call_expression) (parenthesized_expression) (instance_expression) (string)] field: (identifier) @name)) @reference.call
(call_expression function: (generic_function function: (_) @name)) @reference.call
; new Scheduler(jobs, clock)
(instance_expression (call_expression function: [(identifier) (field_expression)] @name)) @reference.call
(instance_expression (call_expression function: (generic_function function: (_) @name))) @reference.call
(instance_expression . [(identifier) (field_expression)] @name .) @reference.call
