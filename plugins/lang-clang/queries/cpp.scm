; Tags for C++ (tree-sitter-cpp as built in tree-sitter-wasms@0.1.13).
; Conventions: see README.md.
; Only bodies are definitions (see c.scm): `double area() const;` in a class is not, its
; out-of-line body `double Circle::area() const { … }` is (named Circle::area as written).

; ---- definitions ----

; member functions defined in the class body
(class_specifier body: (field_declaration_list
  (function_definition declarator: (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)) @definition.method))
(struct_specifier body: (field_declaration_list
  (function_definition declarator: (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)) @definition.method))
(class_specifier body: (field_declaration_list
  (template_declaration (function_definition declarator: (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)) @definition.method)))

; free functions and out-of-line members (`Circle::area`, `ns::f`)
(function_definition
  declarator: [
    (function_declarator declarator: [(identifier) (qualified_identifier) (destructor_name) (operator_name) (field_identifier)] @name)
    (pointer_declarator declarator: (function_declarator declarator: [(identifier) (qualified_identifier) (operator_name)] @name))
    (reference_declarator (function_declarator declarator: [(identifier) (qualified_identifier) (operator_name)] @name))
  ]) @definition.function

(class_specifier name: [(type_identifier) (qualified_identifier)] @name body: (_)) @definition.class
(struct_specifier name: [(type_identifier) (qualified_identifier)] @name body: (_)) @definition.struct
(union_specifier name: (type_identifier) @name body: (_)) @definition.struct
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
(type_definition type: (struct_specifier !name body: (_)) declarator: (type_identifier) @name) @definition.struct
(type_definition
  type: [(struct_specifier name: (_) body: (_)) (union_specifier name: (_) body: (_)) (enum_specifier name: (_) body: (_))]
  declarator: (type_identifier) @name @definition.type)
(type_definition declarator: (type_identifier) @name) @definition.type
(alias_declaration name: (type_identifier) @name) @definition.type
(namespace_definition name: [(namespace_identifier) (nested_namespace_specifier)] @name) @definition.namespace
(preproc_function_def name: (identifier) @name) @definition.macro

; ---- references ----

(preproc_include path: [(string_literal) (system_lib_string)] @name) @reference.import
; using namespace std;   using std::cout;
(using_declaration [(identifier) (qualified_identifier)] @name) @reference.import

; class Circle : public Shape, private Named
(base_class_clause [(type_identifier) (qualified_identifier) (template_type)] @name) @reference.inherits

; f(x)  /  std::pow(x)  /  shapes.begin()  /  s->area()  /  std::make_unique<T>(x)
(call_expression function: [(identifier) (qualified_identifier) (field_expression)] @name) @reference.call
(call_expression function: (template_function name: (_) @name)) @reference.call
(call_expression function: (field_expression argument: (_) @qualifier field: (template_method name: (_) @name))) @reference.call
; new Circle(2.0)
(new_expression type: [(type_identifier) (qualified_identifier) (template_type)] @name) @reference.call
