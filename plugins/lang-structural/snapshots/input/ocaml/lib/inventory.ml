(* Stock levels per item, with reservations. *)
open Printf
module SMap = Map.Make (String)

type item = { sku : string; mutable count : int }

exception Out_of_stock of string

module type STORE = sig
  val load : string -> item option
end

module Memory : STORE = struct
  let table : (string, item) Hashtbl.t = Hashtbl.create 16
  let load sku = Hashtbl.find_opt table sku
end

class counter = object
  val mutable n = 0
  method incr = n <- n + 1
end

let reserve (module S : STORE) sku qty =
  match S.load sku with
  | Some item when item.count >= qty ->
      item.count <- item.count - qty;
      printf "reserved %d of %s\n" qty sku
  | _ -> raise (Out_of_stock sku)

let total items = List.fold_left (fun acc i -> acc + i.count) 0 items

let () = ignore (SMap.empty)
