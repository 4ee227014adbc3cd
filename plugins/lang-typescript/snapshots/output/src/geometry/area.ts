import { Circle, type Shape } from '@lib/shapes';
//                                 ^^^^^^^^^^^^^ reference imports @lib/shapes
import * as lib from '@lib/index';
//                   ^^^^^^^^^^^^ reference imports @lib/index

/** Sum of the areas; works on anything shaped like a Shape. */
export function totalArea(shapes: Shape[]): number {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function totalArea [5:0-7:1]
  return shapes.reduce((sum, s) => sum + s.area(), 0);
//              ^^^^^^ reference calls shapes.reduce (from totalArea)
//                                         ^^^^ reference calls s.area (from totalArea)
}

export namespace Units {
// ^^^^^^^^^^^^^^^^^^^^^^^^ definition namespace Units [9:0-15:1]
  export const CM_PER_INCH = 2.54;
//^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition constant Units.CM_PER_INCH

  export function toCentimeters(inches: number): number {
//^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function Units.toCentimeters (to 14:3)
    return inches * CM_PER_INCH;
  }
}

export enum Unit {
// ^^^^^^^^^^^^^^^^^^ definition enum Unit [17:0-20:1]
  Centimeter = 'cm',
  Inch = 'in',
}

export function unitCircle(): Circle {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function unitCircle [22:0-24:1]
  return new Circle(Units.toCentimeters(1));
//           ^^^^^^ reference calls Circle (from unitCircle)
//                        ^^^^^^^^^^^^^ reference calls Units.toCentimeters (from unitCircle)
}

export function report(shapes: Shape[]): string {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function report [26:0-29:1]
  const big = lib.largest(shapes);
//                ^^^^^^^ reference calls lib.largest (from report)
  return big ? lib.fmt(big.area()) : lib.formatting.format(0);
//                 ^^^ reference calls lib.fmt (from report)
//                         ^^^^ reference calls big.area (from report)
//                                                  ^^^^^^ reference calls lib.formatting.format (from report)
}
// ----- travsr snapshot: src/geometry/area.ts (typescript, phase A, status ok) -----
// node file <file> (area.ts)
// skeleton Unit: "export enum Unit"
// skeleton Units.CM_PER_INCH: "export const CM_PER_INCH = 2.54;"
// skeleton Units.toCentimeters: "export function toCentimeters(inches: number): number"
// skeleton Units: "export namespace Units"
// skeleton report: "export function report(shapes: Shape[]): string"
// skeleton totalArea: "/** Sum of the areas; works on anything shaped like a Shape. */\nexport function totalArea(shapes: Shape[]): number"
// skeleton unitCircle: "export function unitCircle(): Circle"
// edge contains <file> -> Unit (confidence 1, phase-a)
// edge contains <file> -> Units (confidence 1, phase-a)
// edge contains <file> -> report (confidence 1, phase-a)
// edge contains <file> -> totalArea (confidence 1, phase-a)
// edge contains <file> -> unitCircle (confidence 1, phase-a)
// edge contains Units -> Units.CM_PER_INCH (confidence 1, phase-a)
// edge contains Units -> Units.toCentimeters (confidence 1, phase-a)
