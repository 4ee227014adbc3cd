; Tags for Go (tree-sitter-go as built in tree-sitter-wasms@0.1.13).
; Conventions: see python.scm and README.md.

; ---- definitions ----

; type Account struct { … }  /  type Store interface { … }  /  type ID string  /  type E = int
; (a lone spec takes the whole `type …` declaration, so its doc comment comes along)
(type_declaration . (type_spec name: (type_identifier) @name type: (struct_type)) .) @definition.struct
(type_declaration . (type_spec name: (type_identifier) @name type: (interface_type)) .) @definition.interface
(type_declaration . [(type_spec name: (type_identifier) @name) (type_alias name: (type_identifier) @name)] .) @definition.type
(type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
(type_spec name: (type_identifier) @name) @definition.type
(type_alias name: (type_identifier) @name) @definition.type

(function_declaration name: (identifier) @name) @definition.function

; func (l *Ledger) Post(…)  →  Ledger.Post   (generic receivers too: func (s *Set[T]) Add)
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (type_identifier) @qualifier
        (pointer_type (type_identifier) @qualifier)
        (generic_type type: (type_identifier) @qualifier)
        (pointer_type (generic_type type: (type_identifier) @qualifier))
      ]))
  name: (field_identifier) @name) @definition.method

; interface methods:  Load(name string) (*Account, error)
(method_spec name: (field_identifier) @name) @definition.method

; ---- references ----

(import_spec path: (interpreted_string_literal) @name) @reference.import

; embedded interfaces and struct fields (their methods are promoted): Store, *Base, io.Reader
(interface_type (constraint_elem [(type_identifier) (qualified_type)] @name)) @reference.inherits
(field_declaration
  !name
  type: [
    (type_identifier) @name
    (qualified_type) @name
    (pointer_type [(type_identifier) (qualified_type)] @name)
  ]) @reference.inherits

; f(x)  /  fmt.Println(x)  /  l.store.Save(a)   (named as written)
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (selector_expression operand: [(identifier) (selector_expression)]) @name) @reference.call
; make().Close()  /  m[k].Run()   (the receiver is an expression: only the member name)
(call_expression
  function: (selector_expression
    operand: [(call_expression) (index_expression) (parenthesized_expression) (composite_literal) (type_assertion_expression)]
    field: (field_identifier) @name)) @reference.call
