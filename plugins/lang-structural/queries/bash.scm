; Tags for Bash (tree-sitter-bash as built in tree-sitter-wasms@0.1.13).
; Conventions: see README.md.

; ---- definitions ----

; log() { … }   function build_release { … }
(function_definition name: (word) @name) @definition.function

; ---- references ----

; source lib/common.sh   . ./config.env   source "$(dirname "$0")/lib/common.sh"   (the literal tail)
(command
  name: (command_name (word) @_source)
  argument: [(word) @name (raw_string) @name (string (string_content) @name .)]
  (#any-of? @_source "source" ".")) @reference.import

; deploy_to "$host"   make -C "$ROOT" release   (shell builtins are left out: they name nothing in the repository)
(command
  name: (command_name (word) @name)
  (#not-any-of? @name
    "source" "." "set" "unset" "export" "local" "declare" "typeset" "readonly" "echo" "printf" "read"
    "cd" "pwd" "pushd" "popd" "exit" "return" "shift" "test" "[" "[[" "true" "false" ":" "eval" "exec"
    "trap" "wait" "command" "builtin" "type" "hash" "getopts" "let" "alias" "unalias" "break" "continue"
    "shopt" "umask" "ulimit" "kill" "jobs" "bg" "fg" "disown" "mapfile" "readarray")) @reference.call
