/** Anything with an area and a name. */
export interface Shape {
  readonly name: string;
  /** Area in square units. */
  area(): number;
  scale(factor: number): Shape;
}

/** Shared behaviour of the concrete shapes. */
export abstract class BaseShape implements Shape {
  constructor(readonly name: string) {}

  abstract area(): number;
  abstract scale(factor: number): Shape;

  describe(): string {
    return `${this.name} with area ${this.area().toFixed(2)}`;
  }
}

export class Circle extends BaseShape {
  constructor(readonly radius: number) {
    super('circle');
  }

  area(): number {
    return Math.PI * this.radius ** 2;
  }

  scale(factor: number): Circle {
    return new Circle(this.radius * factor);
  }
}

export class Square extends BaseShape {
  static unit = new Square(1);

  constructor(readonly side: number) {
    super('square');
  }

  area(): number {
    return this.side * this.side;
  }

  scale(factor: number): Square {
    return new Square(this.side * factor);
  }
}

/**
 * The shape with the largest area, keeping the caller's element type.
 *
 * @param shapes - the candidates; an empty list has no largest shape
 * @example
 * largest([new Circle(1), new Square(3)])?.name // "square"
 */
export function largest<T extends Shape>(shapes: readonly T[]): T | undefined {
  let best: T | undefined;
  for (const s of shapes) if (!best || s.area() > best.area()) best = s;
  return best;
}
