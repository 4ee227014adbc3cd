/** Anything with an area and a name. */
export interface Shape {
// ^^^^^^^^^^^^^^^^^^^^^^^^ definition interface Shape [2:0-7:1]
  readonly name: string;
//^^^^^^^^^^^^^^^^^^^^^^ definition property Shape.name
  /** Area in square units. */
  area(): number;
//^^^^^^^^^^^^^^^ definition method Shape.area
  scale(factor: number): Shape;
//^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Shape.scale
}

/** Shared behaviour of the concrete shapes. */
export abstract class BaseShape implements Shape {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition class BaseShape [10:0-19:1]
//                                         ^^^^^ reference implements Shape (from BaseShape)
  constructor(readonly name: string) {}
//^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition constructor BaseShape.constructor

  abstract area(): number;
//^^^^^^^^^^^^^^^^^^^^^^^^ definition method BaseShape.area
  abstract scale(factor: number): Shape;
//^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method BaseShape.scale

  describe(): string {
//^^^^^^^^^^^^^^^^^^^^ definition method BaseShape.describe (to 18:3)
    return `${this.name} with area ${this.area().toFixed(2)}`;
//                                        ^^^^ reference calls this.area (from BaseShape.describe)
//                                               ^^^^^^^ reference calls toFixed (from BaseShape.describe)
  }
}

export class Circle extends BaseShape {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition class Circle [21:0-33:1]
//                          ^^^^^^^^^ reference inherits BaseShape (from Circle)
  constructor(readonly radius: number) {
//^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition constructor Circle.constructor (to 24:3)
    super('circle');
  }

  area(): number {
//^^^^^^^^^^^^^^^^ definition method Circle.area (to 28:3)
    return Math.PI * this.radius ** 2;
  }

  scale(factor: number): Circle {
//^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Circle.scale (to 32:3)
    return new Circle(this.radius * factor);
//             ^^^^^^ reference calls Circle (from Circle.scale)
  }
}

export class Square extends BaseShape {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition class Square [35:0-49:1]
//                          ^^^^^^^^^ reference inherits BaseShape (from Square)
  static unit = new Square(1);
//^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition field Square.unit
//                  ^^^^^^ reference calls Square (from Square.unit)

  constructor(readonly side: number) {
//^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition constructor Square.constructor (to 40:3)
    super('square');
  }

  area(): number {
//^^^^^^^^^^^^^^^^ definition method Square.area (to 44:3)
    return this.side * this.side;
  }

  scale(factor: number): Square {
//^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Square.scale (to 48:3)
    return new Square(this.side * factor);
//             ^^^^^^ reference calls Square (from Square.scale)
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
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function largest [58:0-62:1]
  let best: T | undefined;
  for (const s of shapes) if (!best || s.area() > best.area()) best = s;
//                                       ^^^^ reference calls s.area (from largest)
//                                                     ^^^^ reference calls best.area (from largest)
  return best;
}
// ----- travsr snapshot: src/lib/shapes.ts (typescript, phase A, status ok) -----
// node file <file> (shapes.ts)
// skeleton BaseShape.area: "abstract area(): number;"
// skeleton BaseShape.constructor: "constructor(readonly name: string)"
// skeleton BaseShape.describe: "describe(): string"
// skeleton BaseShape.scale: "abstract scale(factor: number): Shape;"
// skeleton BaseShape: "/** Shared behaviour of the concrete shapes. */\nexport abstract class BaseShape implements Shape"
// skeleton Circle.area: "area(): number"
// skeleton Circle.constructor: "constructor(readonly radius: number)"
// skeleton Circle.scale: "scale(factor: number): Circle"
// skeleton Circle: "export class Circle extends BaseShape"
// skeleton Shape.area: "/** Area in square units. */\narea(): number;"
// skeleton Shape.name: "readonly name: string;"
// skeleton Shape.scale: "scale(factor: number): Shape;"
// skeleton Shape: "/** Anything with an area and a name. */\nexport interface Shape"
// skeleton Square.area: "area(): number"
// skeleton Square.constructor: "constructor(readonly side: number)"
// skeleton Square.scale: "scale(factor: number): Square"
// skeleton Square.unit: "static unit = new Square(1);"
// skeleton Square: "export class Square extends BaseShape"
// skeleton largest: "/**\n * The shape with the largest area, keeping the caller's element type.\n */\nexport function largest<T extends Shape>(shapes: readonly T[]): T | undefined"
// edge contains <file> -> BaseShape (confidence 1, phase-a)
// edge contains <file> -> Circle (confidence 1, phase-a)
// edge contains <file> -> Shape (confidence 1, phase-a)
// edge contains <file> -> Square (confidence 1, phase-a)
// edge contains <file> -> largest (confidence 1, phase-a)
// edge contains BaseShape -> BaseShape.area (confidence 1, phase-a)
// edge contains BaseShape -> BaseShape.constructor (confidence 1, phase-a)
// edge contains BaseShape -> BaseShape.describe (confidence 1, phase-a)
// edge contains BaseShape -> BaseShape.scale (confidence 1, phase-a)
// edge contains Circle -> Circle.area (confidence 1, phase-a)
// edge contains Circle -> Circle.constructor (confidence 1, phase-a)
// edge contains Circle -> Circle.scale (confidence 1, phase-a)
// edge contains Shape -> Shape.area (confidence 1, phase-a)
// edge contains Shape -> Shape.name (confidence 1, phase-a)
// edge contains Shape -> Shape.scale (confidence 1, phase-a)
// edge contains Square -> Square.area (confidence 1, phase-a)
// edge contains Square -> Square.constructor (confidence 1, phase-a)
// edge contains Square -> Square.scale (confidence 1, phase-a)
// edge contains Square -> Square.unit (confidence 1, phase-a)
