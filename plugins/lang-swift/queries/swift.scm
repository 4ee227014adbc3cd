; Tags for Swift (tree-sitter-swift as built in tree-sitter-wasms@0.1.13). Structs, classes,
; enums, actors and extensions are all `class_declaration`, told apart by their keyword.
; Conventions: see README.md.

; ---- definitions ----

; methods of `extension Forecast { … }` are Forecast's (the extension itself is not a definition)
(class_declaration
  "extension"
  name: (user_type (type_identifier) @qualifier)
  body: (class_body [
    (function_declaration name: (simple_identifier) @name)
    (init_declaration "init" @name)
  ] @definition.method))

(class_declaration "struct" name: (type_identifier) @name) @definition.struct
(class_declaration "enum" name: (type_identifier) @name) @definition.enum
(class_declaration ["class" "actor"] name: (type_identifier) @name) @definition.class
(protocol_declaration name: (type_identifier) @name) @definition.interface
(protocol_function_declaration name: (simple_identifier) @name) @definition.method
(class_body (function_declaration name: (simple_identifier) @name) @definition.method)
(enum_class_body (function_declaration name: (simple_identifier) @name) @definition.method)
(function_declaration name: (simple_identifier) @name) @definition.function
(init_declaration "init" @name) @definition.constructor
(typealias_declaration name: (type_identifier) @name) @definition.type

; ---- references ----

; import Foundation   import struct CoreLocation.CLLocationCoordinate2D
(import_declaration (identifier) @name) @reference.import

; struct Forecast: Codable   class Service: NSObject, Source   extension Forecast: Hashable
; (the grammar cannot tell a superclass from a protocol)
(inheritance_specifier inherits_from: (user_type) @name) @reference.inherits

; endpoint(city)   URL(string: s)   session.data(from: url)   items.map { … }
; (`cache[city]` parses as a call with square brackets: left out)
(call_expression . (simple_identifier) @name (call_suffix (value_arguments "("))) @reference.call
(call_expression . (simple_identifier) @name (call_suffix (lambda_literal))) @reference.call
(call_expression . (navigation_expression) @name (call_suffix (value_arguments "("))) @reference.call
(call_expression . (navigation_expression) @name (call_suffix (lambda_literal))) @reference.call
