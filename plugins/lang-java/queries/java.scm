; Tags for Java (tree-sitter-java as built in tree-sitter-wasms@0.1.13).
; Conventions: see README.md.

; ---- definitions ----

(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(annotation_type_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.constructor
(compact_constructor_declaration name: (identifier) @name) @definition.constructor
(annotation_type_element_declaration name: (identifier) @name) @definition.method

; ---- references ----

; import java.util.List;   import java.util.*;   import static java.util.Objects.requireNonNull;
(import_declaration [(identifier) (scoped_identifier)] @name) @reference.import

; class A extends B implements C, D   /   interface I extends J, K
(superclass [(type_identifier) (scoped_type_identifier) (generic_type)] @name) @reference.inherits
(super_interfaces (type_list [(type_identifier) (scoped_type_identifier) (generic_type)] @name)) @reference.implementation
(extends_interfaces (type_list [(type_identifier) (scoped_type_identifier) (generic_type)] @name)) @reference.inherits

; save(x)  /  repository.save(x)  /  this.repo.save(x)  /  make().close()
(method_invocation
  object: [(identifier) (field_access) (this) (super)]? @qualifier
  name: (identifier) @name) @reference.call
; new Invoice(…)
(object_creation_expression
  type: [
    (type_identifier) @name
    (scoped_type_identifier) @name
    (generic_type [(type_identifier) (scoped_type_identifier)] @name)
  ]) @reference.call
; Line::amount
(method_reference . [(identifier) (field_access) (type_identifier) (scoped_type_identifier)] @qualifier (identifier) @name .) @reference.call
