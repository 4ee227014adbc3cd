; Tags for Kotlin (tree-sitter-kotlin as built in tree-sitter-wasms@0.1.13; its nodes have few
; field names, so children are matched by type and order).
; Conventions: see README.md.

; ---- definitions ----

(class_declaration "interface" (type_identifier) @name) @definition.interface
(class_declaration "enum" (type_identifier) @name) @definition.enum
(class_declaration (type_identifier) @name) @definition.class
(object_declaration (type_identifier) @name) @definition.class

; fun Task.describe()   (an extension function is named after its receiver: Task.describe)
(function_declaration (user_type (type_identifier) @qualifier) . (simple_identifier) @name) @definition.function
(class_body (function_declaration (simple_identifier) @name) @definition.method)
(function_declaration (simple_identifier) @name) @definition.function
(type_alias (type_identifier) @name) @definition.type

; ---- references ----

(import_header (identifier) @name) @reference.import

; class A : Base(), Closeable   (a constructor call names the superclass; the rest are interfaces or delegates)
(delegation_specifier (constructor_invocation (user_type) @name)) @reference.inherits
(delegation_specifier . (user_type) @name) @reference.implementation
(delegation_specifier (explicit_delegation (user_type) @name)) @reference.implementation

; foo(x)   store.save(t)   Result.Ok(v)   store.all().map { … }   (a call on an expression keeps the member name)
(call_expression . (simple_identifier) @name) @reference.call
(call_expression . (navigation_expression) @name) @reference.call
; Task::done
(callable_reference (type_identifier) @qualifier (simple_identifier) @name) @reference.call
