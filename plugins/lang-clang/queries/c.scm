; Tags for C (tree-sitter-c as built in tree-sitter-wasms@0.1.13).
; Conventions: see README.md.
; Prototypes (`int f(void);`) are not definitions: only bodies are, so that a call has one
; candidate to match, not the prototype in the header and the body in the .c file.

; ---- definitions ----

(function_definition
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
  ]) @definition.function

; typedef struct { … } point_t;   (the typedef names the struct)
(type_definition type: (struct_specifier !name body: (_)) declarator: (type_identifier) @name) @definition.struct
(type_definition type: (union_specifier !name body: (_)) declarator: (type_identifier) @name) @definition.struct
(type_definition type: (enum_specifier !name body: (_)) declarator: (type_identifier) @name) @definition.enum
; typedef struct ring { … } ring_t;   (struct ring, and ring_t beside it rather than around it)
(type_definition
  type: [(struct_specifier name: (_) body: (_)) (union_specifier name: (_) body: (_)) (enum_specifier name: (_) body: (_))]
  declarator: (type_identifier) @name @definition.type)
(type_definition declarator: (type_identifier) @name) @definition.type

(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
(union_specifier name: (type_identifier) @name body: (_)) @definition.struct
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum

; #define MAX(a, b) …   (object-like #defines are constants and include guards: left out)
(preproc_function_def name: (identifier) @name) @definition.macro

; ---- references ----

(preproc_include path: [(string_literal) (system_lib_string)] @name) @reference.import

; f(x)  /  ops.read(x)  /  dev->ops->read(x)   (`->` is written `.`)
(call_expression function: [(identifier) (field_expression)] @name) @reference.call
