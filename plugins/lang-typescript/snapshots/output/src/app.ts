import { Circle as Round, Square, fmt, formatters, largest, shout, type Shape } from './lib/index';
//                                                                                   ^^^^^^^^^^^^^ reference imports ./lib/index
import { report, totalArea, Unit } from './geometry/area';
//                                      ^^^^^^^^^^^^^^^^^ reference imports ./geometry/area
import { Badge } from './components/Badge';
//                    ^^^^^^^^^^^^^^^^^^^^ reference imports ./components/Badge

interface Repository<T> {
// ^^^^^^^^^^^^^^^^^^^^^^^^^ definition interface Repository [5:0-8:1]
  save(item: T): void;
//^^^^^^^^^^^^^^^^^^^^ definition method Repository.save
  all(): readonly T[];
//^^^^^^^^^^^^^^^^^^^^ definition method Repository.all
}

class MemoryRepository<T extends Shape> implements Repository<T> {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition class MemoryRepository [10:0-25:1]
//                                                 ^^^^^^^^^^ reference implements Repository (from MemoryRepository)
  private readonly items: T[] = [];
//^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition field MemoryRepository.items

  save(item: T): void {
//^^^^^^^^^^^^^^^^^^^^^ definition method MemoryRepository.save (to 16:3)
    this.items.push(item);
//             ^^^^ reference calls this.items.push (from MemoryRepository.save)
    this.log(`saved ${item.name}`);
//       ^^^ reference calls this.log (from MemoryRepository.save)
  }

  all(): readonly T[] {
//^^^^^^^^^^^^^^^^^^^^^ definition method MemoryRepository.all (to 20:3)
    return this.items;
  }

  private log = (message: string): void => {
//^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method MemoryRepository.log (to 24:4)
    console.log(shout(message));
//          ^^^ reference calls console.log (from MemoryRepository.log)
//              ^^^^^ reference calls shout (from MemoryRepository.log)
  };
}

function fill(repo: Repository<Shape>): void {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function fill [27:0-30:1]
  repo.save(new Round(1));
//     ^^^^ reference calls repo.save (from fill)
//              ^^^^^ reference calls Round (from fill)
  repo.save(Square.unit.scale(3));
//     ^^^^ reference calls repo.save (from fill)
//                      ^^^^^ reference calls Square.unit.scale (from fill)
}

export function main(): string {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function main [32:0-40:1]
  const repo = new MemoryRepository<Shape>();
//                 ^^^^^^^^^^^^^^^^ reference calls MemoryRepository (from main)
  fill(repo);
//^^^^ reference calls fill (from main)
  const shapes = repo.all();
//                    ^^^ reference calls repo.all (from main)
  const best = largest(shapes);
//             ^^^^^^^ reference calls largest (from main)
  const summary = [fmt(totalArea([...shapes])), formatters.currency(12), report([...shapes]), Unit.Inch];
//                 ^^^ reference calls fmt (from main)
//                     ^^^^^^^^^ reference calls totalArea (from main)
//                                                         ^^^^^^^^ reference calls formatters.currency (from main)
//                                                                       ^^^^^^ reference calls report (from main)
  if (best) summary.push(fmt(best.area()), fmt(new Date(0)));
//                  ^^^^ reference calls summary.push (from main)
//                       ^^^ reference calls fmt (from main)
//                                ^^^^ reference calls best.area (from main)
//                                         ^^^ reference calls fmt (from main)
//                                                 ^^^^ reference calls Date (from main)
  return `${summary.join(', ')} ${Badge({ label: 'done' })}`;
//                  ^^^^ reference calls summary.join (from main)
//                                ^^^^^ reference calls Badge (from main)
}
// ----- travsr snapshot: src/app.ts (typescript, phase A, status ok) -----
// node file <file> (app.ts)
// skeleton MemoryRepository.all: "all(): readonly T[]"
// skeleton MemoryRepository.items: "private readonly items: T[] = [];"
// skeleton MemoryRepository.log: "private log = (message: string): void =>"
// skeleton MemoryRepository.save: "save(item: T): void"
// skeleton MemoryRepository: "class MemoryRepository<T extends Shape> implements Repository<T>"
// skeleton Repository.all: "all(): readonly T[];"
// skeleton Repository.save: "save(item: T): void;"
// skeleton Repository: "interface Repository<T>"
// skeleton fill: "function fill(repo: Repository<Shape>): void"
// skeleton main: "export function main(): string"
// edge contains <file> -> MemoryRepository (confidence 1, phase-a)
// edge contains <file> -> Repository (confidence 1, phase-a)
// edge contains <file> -> fill (confidence 1, phase-a)
// edge contains <file> -> main (confidence 1, phase-a)
// edge contains MemoryRepository -> MemoryRepository.all (confidence 1, phase-a)
// edge contains MemoryRepository -> MemoryRepository.items (confidence 1, phase-a)
// edge contains MemoryRepository -> MemoryRepository.log (confidence 1, phase-a)
// edge contains MemoryRepository -> MemoryRepository.save (confidence 1, phase-a)
// edge contains Repository -> Repository.all (confidence 1, phase-a)
// edge contains Repository -> Repository.save (confidence 1, phase-a)
