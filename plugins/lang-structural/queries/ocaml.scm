; Tags for OCaml implementations, .ml (tree-sitter-ocaml as built in tree-sitter-wasms@0.1.13;
; the package has no ocaml_interface grammar, so .mli files are not served).
; Conventions: see README.md.

; ---- definitions ----

(module_binding name: (module_name) @name) @definition.module
(module_type_definition name: (module_type_name) @name) @definition.interface
(class_binding name: (class_name) @name) @definition.class
(class_type_binding name: (class_type_name) @name) @definition.interface
(method_definition name: (method_name) @name) @definition.method
(type_binding name: (type_constructor) @name) @definition.type

; let reserve m sku qty = …   let f = fun x -> …   let g = function … (values without parameters are not definitions)
(let_binding pattern: (value_name) @name (parameter)) @definition.function
(let_binding pattern: (value_name) @name body: [(fun_expression) (function_expression)]) @definition.function
; val load : string -> item option   (in a signature)
(value_specification (value_name) @name) @definition.function
(external (value_name) @name) @definition.function

; ---- references ----

; open Printf   include Base
(open_module (module_path) @name) @reference.import
(include_module (module_path) @name) @reference.inherits
; inherit base   (in a class)
(inheritance_definition (class_path) @name) @reference.inherits

; printf "…" x   Hashtbl.find_opt table k   S.load sku
(application_expression function: (value_path) @name) @reference.call
