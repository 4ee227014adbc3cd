; Tags for Dart (tree-sitter-dart as built in tree-sitter-wasms@0.1.13). A method's body is
; the sibling of its signature, not its child: `@end` stretches the definition over it, so the
; calls in the body come from the method. Calls have no node of their own: a name followed
; by an argument list is one.
; Conventions: see README.md.

; ---- definitions ----

; methods of `extension CounterX on Counter` are Counter's
(extension_declaration
  class: (type_identifier) @qualifier
  body: (extension_body
    (method_signature [
      (function_signature name: (identifier) @name)
      (getter_signature name: (identifier) @name)
      (setter_signature name: (identifier) @name)
    ]) @definition.method
    .
    (function_body) @end))

(class_body
  (method_signature [
    (function_signature name: (identifier) @name)
    (getter_signature name: (identifier) @name)
    (setter_signature name: (identifier) @name)
    (operator_signature) @name
  ]) @definition.method
  .
  (function_body)? @end)
(class_body
  (declaration [
    (function_signature name: (identifier) @name)
    (getter_signature name: (identifier) @name)
    (setter_signature name: (identifier) @name)
  ]) @definition.method)

; PersistentCounter(this._store);   PersistentCounter.memory() : …;   factory Counter.fromJson(…) { … }
(class_body
  [
    (declaration (constructor_signature name: (identifier) name: (identifier) @name))
    (declaration (constructor_signature name: (identifier) @name . parameters: (formal_parameter_list)))
    (declaration (factory_constructor_signature (identifier) (identifier) @name))
    (declaration (factory_constructor_signature . (identifier) @name . (formal_parameter_list)))
    (method_signature (constructor_signature name: (identifier) name: (identifier) @name))
    (method_signature (constructor_signature name: (identifier) @name . parameters: (formal_parameter_list)))
    (method_signature (factory_constructor_signature (identifier) (identifier) @name))
    (method_signature (factory_constructor_signature . (identifier) @name . (formal_parameter_list)))
  ] @definition.constructor
  .
  (function_body)? @end)

(program
  (function_signature name: (identifier) @name) @definition.function
  .
  (function_body) @end)

(class_definition name: (identifier) @name) @definition.class
(mixin_declaration (identifier) @name) @definition.class
(enum_declaration name: (identifier) @name) @definition.enum
(type_alias (type_identifier) @name) @definition.type

; ---- references ----

; import 'package:meta/meta.dart';   export 'src/counter.dart';
(import_specification (configurable_uri (uri (string_literal) @name))) @reference.import
(library_export (configurable_uri (uri (string_literal) @name))) @reference.import

; class PersistentCounter extends Counter with Loggable implements Disposable
(superclass (type_identifier) @name) @reference.inherits
(mixins (type_identifier) @name) @reference.inherits
(interfaces (type_identifier) @name) @reference.implementation

; log('x')   _store.write(k, v)   storage.Store.memory()   a?.b()
(_ (identifier) @name . (selector (argument_part))) @reference.call
(_
  (identifier) @qualifier
  .
  (selector [(unconditional_assignable_selector (identifier) @name) (conditional_assignable_selector (identifier) @name)])
  .
  (selector (argument_part))) @reference.call
(_
  (selector)
  .
  (selector [(unconditional_assignable_selector (identifier) @name) (conditional_assignable_selector (identifier) @name)])
  .
  (selector (argument_part))) @reference.call
