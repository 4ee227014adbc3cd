; Tags for Elixir (tree-sitter-elixir as built in tree-sitter-wasms@0.1.13). Everything is a
; call: `defmodule`, `def`, `alias`… are told apart by the name of the called macro.
; Conventions: see README.md.

; ---- definitions ----

; defmodule Chat.Room do … end   defprotocol Describable do … end
(call
  target: (identifier) @_kw
  (arguments (alias) @name)
  (#any-of? @_kw "defmodule" "defprotocol")) @definition.module

; def start_link(name) do … end   defp via(n), do: …   def post(a) when is_binary(a) do … end
(call
  target: (identifier) @_kw
  (arguments [
    (call target: (identifier) @name)
    (binary_operator left: (call target: (identifier) @name) operator: "when")
    (identifier) @name
  ])
  (#any-of? @_kw "def" "defp" "defdelegate" "defguard" "defguardp" "defn" "defnp")) @definition.function
(call
  target: (identifier) @_kw
  (arguments [
    (call target: (identifier) @name)
    (binary_operator left: (call target: (identifier) @name) operator: "when")
    (identifier) @name
  ])
  (#any-of? @_kw "defmacro" "defmacrop")) @definition.macro

; ---- references ----

; @doc "…"   @impl true   (module attributes are written as calls)
(unary_operator operator: "@" operand: (call target: (identifier) @name)) @reference.ignore

; alias Chat.Message   import Logger   require Chat.Metrics   use GenServer
(call
  target: (identifier) @_kw
  (arguments . (alias) @name)
  (#any-of? @_kw "alias" "import" "require" "use")) @reference.import
; alias Chat.{Message, Presence}
(call
  target: (identifier) @_kw
  (arguments . (dot left: (alias) @qualifier right: (tuple (alias) @name)))
  (#eq? @_kw "alias")) @reference.import

; @behaviour Chat.Broadcaster   defimpl Describable, for: Room
(unary_operator operator: "@" operand: (call target: (identifier) @_b (arguments (alias) @name)) (#eq? @_b "behaviour")) @reference.implementation
(call target: (identifier) @_kw (arguments . (alias) @name) (#eq? @_kw "defimpl")) @reference.implementation

; via(name)   (the special forms and definition macros are not calls to anything in the repository)
(call
  target: (identifier) @name
  (#not-any-of? @name
    "def" "defp" "defmodule" "defprotocol" "defimpl" "defmacro" "defmacrop" "defdelegate" "defguard"
    "defguardp" "defstruct" "defexception" "defoverridable" "alias" "import" "require" "use" "quote"
    "unquote" "unquote_splicing" "if" "unless" "case" "cond" "with" "for" "fn" "receive" "try" "raise"
    "reraise" "throw" "super" "__MODULE__" "__aliases__")) @reference.call
; GenServer.cast(room, msg)   Chat.Metrics.count(:posts)   :ets.new(t, [])   mod.run(x)
; (`state.members` without parentheses is a map field, not a call)
(call target: (dot left: [(alias) (atom)] @qualifier right: (identifier) @name)) @reference.call
(call target: (dot left: (identifier) @qualifier right: (identifier) @name) (arguments)) @reference.call
(call target: (dot left: (call) right: (identifier) @name)) @reference.call
