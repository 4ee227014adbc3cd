(* Stock levels per item, with reservations. *)
open Printf
(*   ^^^^^^ reference imports Printf *)
module SMap = Map.Make (String)
(*     ^^^^^^^^^^^^^^^^^^^^^^^^ definition module SMap *)

type item = { sku : string; mutable count : int }
(*   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition type item *)

exception Out_of_stock of string

module type STORE = sig
(* ^^^^^^^^^^^^^^^^^^^^^^^ definition interface STORE [9:0-11:3] *)
  val load : string -> item option
(*^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function STORE.load *)
end

module Memory : STORE = struct
(*     ^^^^^^^^^^^^^^^^^^^^^^^ definition module Memory (to 16:3) *)
  let table : (string, item) Hashtbl.t = Hashtbl.create 16
(*                                       ^^^^^^^^^^^^^^ reference calls Hashtbl.create (from Memory) *)
  let load sku = Hashtbl.find_opt table sku
(*    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function Memory.load *)
(*               ^^^^^^^^^^^^^^^^ reference calls Hashtbl.find_opt (from Memory.load) *)
end

class counter = object
(*    ^^^^^^^^^^^^^^^^ definition class counter (to 21:3) *)
  val mutable n = 0
  method incr = n <- n + 1
(*^^^^^^^^^^^^^^^^^^^^^^^^ definition method counter.incr *)
end

let reserve (module S : STORE) sku qty =
(*  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function reserve (to 28:33) *)
  match S.load sku with
(*      ^^^^^^ reference calls S.load (from reserve) *)
  | Some item when item.count >= qty ->
      item.count <- item.count - qty;
      printf "reserved %d of %s\n" qty sku
(*    ^^^^^^ reference calls printf (from reserve) *)
  | _ -> raise (Out_of_stock sku)
(*       ^^^^^ reference calls raise (from reserve) *)

let total items = List.fold_left (fun acc i -> acc + i.count) 0 items
(*  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function total *)
(*                ^^^^^^^^^^^^^^ reference calls List.fold_left (from total) *)

let () = ignore (SMap.empty)
(*       ^^^^^^ reference calls ignore *)
(* ----- travsr snapshot: ocaml/lib/inventory.ml (bash, phase A, status ok) ----- *)
(* node file <file> (inventory.ml) *)
(* skeleton Memory.load: "load sku =" *)
(* skeleton Memory: "Memory : STORE =" *)
(* skeleton SMap: "SMap =" *)
(* skeleton STORE.load: "val load : string -> item option" *)
(* skeleton STORE: "module type STORE =" *)
(* skeleton counter.incr: "method incr =" *)
(* skeleton counter: "counter =" *)
(* skeleton item: "item =" *)
(* skeleton reserve: "reserve (module S : STORE) sku qty =" *)
(* skeleton total: "total items =" *)
(* edge contains <file> -> Memory (confidence 1, phase-a) *)
(* edge contains <file> -> SMap (confidence 1, phase-a) *)
(* edge contains <file> -> STORE (confidence 1, phase-a) *)
(* edge contains <file> -> counter (confidence 1, phase-a) *)
(* edge contains <file> -> item (confidence 1, phase-a) *)
(* edge contains <file> -> reserve (confidence 1, phase-a) *)
(* edge contains <file> -> total (confidence 1, phase-a) *)
(* edge contains Memory -> Memory.load (confidence 1, phase-a) *)
(* edge contains STORE -> STORE.load (confidence 1, phase-a) *)
(* edge contains counter -> counter.incr (confidence 1, phase-a) *)
