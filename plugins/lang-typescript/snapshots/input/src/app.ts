import { Circle as Round, Square, fmt, formatters, largest, shout, type Shape } from './lib/index';
import { report, totalArea, Unit } from './geometry/area';
import { Badge } from './components/Badge';

interface Repository<T> {
  save(item: T): void;
  all(): readonly T[];
}

class MemoryRepository<T extends Shape> implements Repository<T> {
  private readonly items: T[] = [];

  save(item: T): void {
    this.items.push(item);
    this.log(`saved ${item.name}`);
  }

  all(): readonly T[] {
    return this.items;
  }

  private log = (message: string): void => {
    console.log(shout(message));
  };
}

function fill(repo: Repository<Shape>): void {
  repo.save(new Round(1));
  repo.save(Square.unit.scale(3));
}

export function main(): string {
  const repo = new MemoryRepository<Shape>();
  fill(repo);
  const shapes = repo.all();
  const best = largest(shapes);
  const summary = [fmt(totalArea([...shapes])), formatters.currency(12), report([...shapes]), Unit.Inch];
  if (best) summary.push(fmt(best.area()), fmt(new Date(0)));
  return `${summary.join(', ')} ${Badge({ label: 'done' })}`;
}
