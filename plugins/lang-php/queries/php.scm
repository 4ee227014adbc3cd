; Tags for PHP (tree-sitter-php as built in tree-sitter-wasms@0.1.13).
; Conventions: see README.md. Namespace separators `\` and member access
; `->` are written `.` in refs (App.Http.Router, $this.routes.get), as the host splits names.

; ---- definitions ----

(namespace_definition name: (namespace_name) @name body: (_)) @definition.namespace
(class_declaration name: (name) @name) @definition.class
(interface_declaration name: (name) @name) @definition.interface
(trait_declaration name: (name) @name) @definition.trait
(enum_declaration name: (name) @name) @definition.enum
(method_declaration name: (name) @name) @definition.method
(function_definition name: (name) @name) @definition.function

; ---- references ----

; use App\Models\User;   use Psr\Http\Message\ServerRequestInterface as Request;   use function App\f;
(namespace_use_clause [(name) (qualified_name)] @name) @reference.import
; use App\Http\Middleware\{Auth, Throttle};
(namespace_use_declaration
  (namespace_name) @qualifier
  (namespace_use_group (namespace_use_group_clause (namespace_name) @name))) @reference.import
; require_once __DIR__ . '/helpers.php';   include 'config.php';
(require_expression [(string (string_content) @name) (binary_expression right: (string (string_content) @name))]) @reference.import
(require_once_expression [(string (string_content) @name) (binary_expression right: (string (string_content) @name))]) @reference.import
(include_expression [(string (string_content) @name) (binary_expression right: (string (string_content) @name))]) @reference.import
(include_once_expression [(string (string_content) @name) (binary_expression right: (string (string_content) @name))]) @reference.import

; class Router extends BaseRouter implements RouterInterface, \Countable   /   use LoggerAwareTrait;
(base_clause [(name) (qualified_name)] @name) @reference.inherits
(class_interface_clause [(name) (qualified_name)] @name) @reference.implementation
(declaration_list (use_declaration [(name) (qualified_name)] @name)) @reference.inherits

; array_get($a, $k)   \App\f()
(function_call_expression function: [(name) (qualified_name)] @name) @reference.call
; $this->container->call($h)   $this->logger?->debug($m)
(member_call_expression object: [(variable_name) (member_access_expression) (name)] @qualifier name: (name) @name) @reference.call
(nullsafe_member_call_expression object: [(variable_name) (member_access_expression) (name)] @qualifier name: (name) @name) @reference.call
(member_call_expression object: [(member_call_expression) (function_call_expression) (parenthesized_expression) (object_creation_expression) (subscript_expression)] name: (name) @name) @reference.call
(nullsafe_member_call_expression object: [(member_call_expression) (function_call_expression) (parenthesized_expression) (subscript_expression)] name: (name) @name) @reference.call
; Response::notFound()   parent::__construct()   self::build()
(scoped_call_expression scope: [(name) (qualified_name) (relative_scope)] @qualifier name: (name) @name) @reference.call
; new Auth($request)
(object_creation_expression [(name) (qualified_name)] @name) @reference.call
