; Tags for Zig (tree-sitter-zig of tree-sitter-grammars, as built in tree-sitter-wasms@0.1.13).
; Types are values: `const Point = struct { … }` names a struct.
; Conventions: see README.md.

; ---- definitions ----

(struct_declaration (function_declaration name: (identifier) @name) @definition.method)
(union_declaration (function_declaration name: (identifier) @name) @definition.method)
(enum_declaration (function_declaration name: (identifier) @name) @definition.method)
(opaque_declaration (function_declaration name: (identifier) @name) @definition.method)
(function_declaration name: (identifier) @name) @definition.function
(variable_declaration (identifier) @name [(struct_declaration) (union_declaration) (opaque_declaration)]) @definition.struct
(variable_declaration (identifier) @name (enum_declaration)) @definition.enum
; test "push then pop" { … }
(test_declaration (string (string_content) @name)) @definition.function

; ---- references ----

; const std = @import("std");
(builtin_function
  (builtin_identifier) @_import
  (arguments (string (string_content) @name))
  (#eq? @_import "@import")) @reference.import

; f(x)   list.append(x)   std.mem.eql(u8, a, b)   (`@as(…)` and the other builtins are not)
(call_expression function: [(identifier) (field_expression)] @name) @reference.call
