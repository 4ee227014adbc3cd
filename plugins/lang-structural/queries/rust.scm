; Tags for Rust (tree-sitter-rust as built in tree-sitter-wasms@0.1.13).
; Conventions: see README.md.

; ---- definitions ----

; fn in `impl Cache<V>` / `impl Entry for String`  →  Cache.new, String.size
(impl_item
  type: [
    (type_identifier) @qualifier
    (generic_type type: (type_identifier) @qualifier)
    (scoped_type_identifier name: (type_identifier) @qualifier)
  ]
  body: (declaration_list
    (function_item name: (identifier) @name) @definition.method))

; fn in a trait, with or without a default body  →  Entry.size
(trait_item
  body: (declaration_list
    [
      (function_item name: (identifier) @name)
      (function_signature_item name: (identifier) @name)
    ] @definition.method))

(function_item name: (identifier) @name) @definition.function
(struct_item name: (type_identifier) @name) @definition.struct
(union_item name: (type_identifier) @name) @definition.struct
(enum_item name: (type_identifier) @name) @definition.enum
(trait_item name: (type_identifier) @name) @definition.trait
(type_item name: (type_identifier) @name) @definition.type
(mod_item name: (identifier) @name body: (declaration_list)) @definition.module
(macro_definition name: (identifier) @name) @definition.macro

; ---- references ----

; use std::collections::HashMap;   use std::time::{Duration, Instant};   use a::b as c;
(use_declaration argument: [(identifier) (scoped_identifier)] @name) @reference.import
(use_declaration argument: (use_as_clause path: (_) @name)) @reference.import
(use_declaration argument: (use_wildcard (_) @name)) @reference.import
(scoped_use_list
  path: (_) @qualifier
  list: (use_list [(identifier) (scoped_identifier)] @name)) @reference.import
(scoped_use_list
  path: (_) @qualifier
  list: (use_list (use_as_clause path: (_) @name))) @reference.import
(extern_crate_declaration name: (identifier) @name) @reference.import
; mod clock;   (the module's body is another file)
(mod_item name: (identifier) @name !body) @reference.import

; impl Entry for String   (a ref from the file: the implementing type is defined elsewhere)
(impl_item
  trait: [
    (type_identifier) @name
    (scoped_type_identifier) @name
    (generic_type type: [(type_identifier) (scoped_type_identifier)] @name)
  ]) @reference.implementation

; trait Entry: Clone + Send   (supertraits)
(trait_item
  bounds: (trait_bounds [(type_identifier) (scoped_type_identifier)] @name)) @reference.inherits

; f(x)  /  HashMap::new()  /  self.items.insert(k, v)  /  parse::<u8>(s)   (named as written)
(call_expression function: [(identifier) (scoped_identifier) (field_expression)] @name) @reference.call
(call_expression function: (generic_function function: (_) @name)) @reference.call

; cache_of!(60)   (std's own macros are left out: they name nothing in the repository)
(macro_invocation
  macro: [(identifier) (scoped_identifier)] @name
  (#not-any-of? @name
    "println" "print" "eprintln" "eprint" "format" "format_args" "write" "writeln" "vec"
    "assert" "assert_eq" "assert_ne" "debug_assert" "debug_assert_eq" "debug_assert_ne"
    "panic" "unreachable" "unimplemented" "todo" "matches" "dbg" "concat" "stringify"
    "include_str" "include_bytes" "env" "cfg" "line" "file" "column" "module_path")) @reference.call
