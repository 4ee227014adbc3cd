import { Circle, type Shape } from '@lib/shapes';
import * as lib from '@lib/index';

/** Sum of the areas; works on anything shaped like a Shape. */
export function totalArea(shapes: Shape[]): number {
  return shapes.reduce((sum, s) => sum + s.area(), 0);
}

export namespace Units {
  export const CM_PER_INCH = 2.54;

  export function toCentimeters(inches: number): number {
    return inches * CM_PER_INCH;
  }
}

export enum Unit {
  Centimeter = 'cm',
  Inch = 'in',
}

export function unitCircle(): Circle {
  return new Circle(Units.toCentimeters(1));
}

export function report(shapes: Shape[]): string {
  const big = lib.largest(shapes);
  return big ? lib.fmt(big.area()) : lib.formatting.format(0);
}
