// Functions that are definitions without a function declaration: each form has a node, and the
// calls inside belong to it.
declare function $constructor<T>(name: string, init: (inst: T, def: unknown) => void): T;
declare function dual<F>(arity: number, body: F): F;
declare function subscribe(observer: { next: (v: number) => void; error(e: unknown): void }): void;

function log(message: string): void {
  console.info(message);
}

// zod v4: methods assigned to the instance inside a constructor callback.
export const Schema = $constructor<{ check: (v: unknown) => boolean; parse: (v: unknown) => unknown }>('Schema', (inst) => {
  inst.check = (v) => v !== undefined;
  inst.parse = function (v) {
    log('parse');
    return inst.check(v) ? v : undefined;
  };
});

// effect: a module-level const made by a call that wraps a function.
export const map = dual(2, (self: number[], f: (n: number) => number) => self.map((n) => f(n)));

// Functions as values of an anonymous object literal, and this.name = … in a constructor.
export class Watcher {
  onClose: () => void;
  constructor() {
    this.onClose = () => log('closed');
    subscribe({
      next: (v) => log(String(v)),
      error(e) {
        log(String(e));
      },
    });
  }
}
