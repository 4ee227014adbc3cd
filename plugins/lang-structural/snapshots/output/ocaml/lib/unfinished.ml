let broken = {| quoted string (* comment
(*         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ diagnostic warning PARSE_ERRORS: 1 syntax error (1 ERROR node); definitions in the broken region may be missing (to 2:0) *)
(* ----- travsr snapshot: ocaml/lib/unfinished.ml (bash, phase A, status ok) ----- *)
(* node file <file> (unfinished.ml) *)
