// Functions that are definitions without a function declaration: each form has a node, and the
// calls inside belong to it.
declare function $constructor<T>(name: string, init: (inst: T, def: unknown) => void): T;
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function $constructor [3:0-3:89]
declare function dual<F>(arity: number, body: F): F;
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function dual [4:0-4:52]
declare function subscribe(observer: { next: (v: number) => void; error(e: unknown): void }): void;
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function subscribe [5:0-5:99]

function log(message: string): void {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function log [7:0-9:1]
  console.info(message);
//        ^^^^ reference calls console.info (from log)
}

// zod v4: methods assigned to the instance inside a constructor callback.
export const Schema = $constructor<{ check: (v: unknown) => boolean; parse: (v: unknown) => unknown }>('Schema', (inst) => {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function Schema [12:0-18:3]
//                    ^^^^^^^^^^^^ reference calls $constructor (from Schema)
  inst.check = (v) => v !== undefined;
//^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Schema.check
  inst.parse = function (v) {
//^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Schema.parse (to 17:4)
    log('parse');
//  ^^^ reference calls log (from Schema.parse)
    return inst.check(v) ? v : undefined;
//              ^^^^^ reference calls inst.check (from Schema.parse)
  };
});

// effect: a module-level const made by a call that wraps a function.
export const map = dual(2, (self: number[], f: (n: number) => number) => self.map((n) => f(n)));
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function map [21:0-21:96]
//                 ^^^^ reference calls dual (from map)
//                                                                            ^^^ reference calls self.map (from map)
//                                                                                       ^ reference calls f (from map)

// Functions as values of an anonymous object literal, and this.name = … in a constructor.
export class Watcher {
// ^^^^^^^^^^^^^^^^^^^^^^ definition class Watcher [24:0-35:1]
  onClose: () => void;
//^^^^^^^^^^^^^^^^^^^^ definition method Watcher.onClose
  constructor() {
//^^^^^^^^^^^^^^^ definition constructor Watcher.constructor (to 34:3)
    this.onClose = () => log('closed');
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Watcher.onClose@2
//                       ^^^ reference calls log (from Watcher.onClose@2)
    subscribe({
//  ^^^^^^^^^ reference calls subscribe (from Watcher.constructor)
      next: (v) => log(String(v)),
//    ^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Watcher.constructor.next
//                 ^^^ reference calls log (from Watcher.constructor.next)
//                     ^^^^^^ reference calls String (from Watcher.constructor.next)
      error(e) {
//    ^^^^^^^^^^ definition method Watcher.constructor.error (to 32:7)
        log(String(e));
//      ^^^ reference calls log (from Watcher.constructor.error)
//          ^^^^^^ reference calls String (from Watcher.constructor.error)
      },
    });
  }
}
// ----- travsr snapshot: src/assigned/forms.ts (typescript, phase A, status ok) -----
// node file <file> (forms.ts)
// skeleton $constructor: "declare function $constructor<T>(name: string, init: (inst: T, def: unknown) => void): T;"
// skeleton Schema.check: "inst.check = (v) =>"
// skeleton Schema.parse: "inst.parse = function (v)"
// skeleton Schema: "export const Schema = $constructor<{ check: (v: unknown) => boolean; parse: (v: unknown) => unknown }>('Schema', (inst) =>"
// skeleton Watcher.constructor.error: "error(e)"
// skeleton Watcher.constructor.next: "next: (v) =>"
// skeleton Watcher.constructor: "constructor()"
// skeleton Watcher.onClose: "onClose: () => void;"
// skeleton Watcher.onClose@2: "this.onClose = () =>"
// skeleton Watcher: "export class Watcher"
// skeleton dual: "declare function dual<F>(arity: number, body: F): F;"
// skeleton log: "function log(message: string): void"
// skeleton map: "export const map = dual(2, (self: number[], f: (n: number) => number) =>"
// skeleton subscribe: "declare function subscribe(observer: { next: (v: number) => void; error(e: unknown): void }): void;"
// edge contains <file> -> $constructor (confidence 1, phase-a)
// edge contains <file> -> Schema (confidence 1, phase-a)
// edge contains <file> -> Watcher (confidence 1, phase-a)
// edge contains <file> -> dual (confidence 1, phase-a)
// edge contains <file> -> log (confidence 1, phase-a)
// edge contains <file> -> map (confidence 1, phase-a)
// edge contains <file> -> subscribe (confidence 1, phase-a)
// edge contains Schema -> Schema.check (confidence 1, phase-a)
// edge contains Schema -> Schema.parse (confidence 1, phase-a)
// edge contains Watcher -> Watcher.constructor (confidence 1, phase-a)
// edge contains Watcher -> Watcher.onClose (confidence 1, phase-a)
// edge contains Watcher.constructor -> Watcher.constructor.error (confidence 1, phase-a)
// edge contains Watcher.constructor -> Watcher.constructor.next (confidence 1, phase-a)
// edge contains Watcher.constructor -> Watcher.onClose@2 (confidence 1, phase-a)
