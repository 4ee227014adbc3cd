; Tags for Python (tree-sitter-python as built in tree-sitter-wasms@0.1.13).
;
; Conventions of every query in this directory (see README.md):
;   @definition.<kind> + @name   a node of that kind, nested into a qualified name by range
;   @reference.<kind>  + @name   an unresolved ref: call → calls, import → imports,
;                                inherits → inherits, implementation → implements
;   @qualifier                   written before @name with a dot (`Server` + `Serve`,
;                                `django.db` + `models`); a qualified definition name is absolute
; When several patterns match the same node as a definition, the first pattern wins: the
; specific ones (a method inside a class) come before the general ones (any function).

; ---- definitions ----

; def method(self): … directly in a class body (decorated or not)
; (a docstring, when there is one, goes into the skeleton)
(class_definition
  body: (block
    (function_definition
      name: (identifier) @name
      body: (block . (expression_statement (string) @doc)?)) @definition.method))
(class_definition
  body: (block
    (decorated_definition
      definition: (function_definition
        name: (identifier) @name
        body: (block . (expression_statement (string) @doc)?)) @definition.method)))

(function_definition
  name: (identifier) @name
  body: (block . (expression_statement (string) @doc)?)) @definition.function

(class_definition
  name: (identifier) @name
  body: (block . (expression_statement (string) @doc)?)) @definition.class

; handler = lambda event: …   (a name bound to a function value at module level)
(module
  (expression_statement
    (assignment
      left: (identifier) @name
      right: (lambda)) @definition.function))

; ---- references ----

; import os.path   /   import os.path as osp
(import_statement name: (dotted_name) @name) @reference.import
(import_statement name: (aliased_import name: (dotted_name) @name)) @reference.import

; from a.b import c, d as e   /   from . import views   (one ref per imported name: a.b.c)
(import_from_statement
  module_name: (_) @qualifier
  name: (dotted_name) @name) @reference.import
(import_from_statement
  module_name: (_) @qualifier
  name: (aliased_import name: (dotted_name) @name)) @reference.import
; from a.b import *
(import_from_statement
  module_name: (_) @name
  (wildcard_import)) @reference.import

; class Order(Base, mixins.Logged):   (keyword arguments such as metaclass= are not bases)
(class_definition
  superclasses: (argument_list [(identifier) (attribute)] @name)) @reference.inherits

; f(x)   /   os.path.join(x)   /   self.save()   (named as written)
(call function: (identifier) @name) @reference.call
(call function: (attribute object: [(identifier) (attribute)]) @name) @reference.call
; make().close()   /   "x".join(y)   (the receiver is an expression: only the member name)
(call function: (attribute object: [(call) (subscript) (string) (parenthesized_expression) (list) (dictionary)] attribute: (identifier) @name)) @reference.call
