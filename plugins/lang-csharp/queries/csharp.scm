; Tags for C# (tree-sitter-c-sharp as built in tree-sitter-wasms@0.1.13).
; Conventions: see README.md.

; ---- definitions ----

(namespace_declaration name: [(identifier) (qualified_name)] @name) @definition.namespace
(file_scoped_namespace_declaration name: [(identifier) (qualified_name)] @name) @definition.namespace
(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(record_struct_declaration name: (identifier) @name) @definition.struct
(struct_declaration name: (identifier) @name) @definition.struct
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(delegate_declaration name: (identifier) @name) @definition.type
(method_declaration name: (identifier) @name) @definition.method
(local_function_statement name: (identifier) @name) @definition.function
(constructor_declaration name: (identifier) @name) @definition.constructor
(destructor_declaration name: (identifier) @name) @definition.method
(operator_declaration operator: _ @name) @definition.method
(property_declaration name: (identifier) @name) @definition.property

; ---- references ----

; using System.Linq;   using Json = System.Text.Json.JsonSerializer;   using static System.Math;
(using_directive [(identifier) (qualified_name)] @name .) @reference.import

; class Cart : EntityBase, IEnumerable<CartItem>   (the grammar cannot tell a base class from an interface)
(base_list [(identifier) (qualified_name) (generic_name)] @name) @reference.inherits

; Add(x)  /  _items.Add(x)  /  a.b.C<int>()  /  Changed?.Invoke(…)
(invocation_expression function: [(identifier) (member_access_expression)] @name) @reference.call
(invocation_expression function: (generic_name (identifier) @name)) @reference.call
(invocation_expression function: (conditional_access_expression (member_binding_expression name: (_) @name))) @reference.call
; new Cart(id)   new List<int>()
(object_creation_expression type: [(identifier) (qualified_name) (generic_name)] @name) @reference.call
