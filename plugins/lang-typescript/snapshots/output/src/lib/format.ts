export type Formatter<T> = (value: T) => string;
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition type Formatter [1:0-1:48]

/** Formats a number with two decimals, or a date as YYYY-MM-DD. */
export function format(value: number): string;
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function format@overload1 (name format) [4:0-4:46]
export function format(value: Date): string;
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function format@overload2 (name format) [5:0-5:44]
export function format(value: number | Date): string {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function format [6:0-8:1]
  return typeof value === 'number' ? value.toFixed(2) : isoDate(value);
//                                         ^^^^^^^ reference calls value.toFixed (from format)
//                                                      ^^^^^^^ reference calls isoDate (from format)
}

function isoDate(d: Date): string {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function isoDate [10:0-12:1]
  return d.toISOString().slice(0, 10);
//         ^^^^^^^^^^^ reference calls d.toISOString (from isoDate)
//                       ^^^^^ reference calls slice (from isoDate)
}

export const formatters = {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition constant formatters [14:0-22:2]
  currency(amount: number): string {
//^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method formatters.currency (to 17:3)
    return `$${format(amount)}`;
//             ^^^^^^ reference calls format (from formatters.currency)
  },
  percent: (ratio: number): string => `${format(ratio * 100)}%`,
//^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method formatters.percent
//                                       ^^^^^^ reference calls format (from formatters.percent)
  nested: {
//^^^^^^^^^ definition property formatters.nested (to 21:3)
    squareMeters: (n: number) => `${format(n)} m²`,
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method formatters.nested.squareMeters
//                                  ^^^^^^ reference calls format (from formatters.nested.squareMeters)
  },
};

export const withUnit =
// ^^^^^^^^^^^^^^^^^^^^^^^ definition function withUnit [24:0-27:27]
  (unit: string): Formatter<number> =>
  (n) =>
    `${format(n)} ${unit}`;
//     ^^^^^^ reference calls format (from withUnit)

export default function shout(text: string): string {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function shout [29:0-31:1]
  return text.toUpperCase();
//            ^^^^^^^^^^^ reference calls text.toUpperCase (from shout)
}
// ----- travsr snapshot: src/lib/format.ts (typescript, phase A, status ok) -----
// node file <file> (format.ts)
// skeleton Formatter: "export type Formatter<T> = (value: T) => string;"
// skeleton format: "/** Formats a number with two decimals, or a date as YYYY-MM-DD. */\nexport function format(value: number): string;\nexport function format(value: Date): string;\nexport function format(value: number | Date): string"
// skeleton format@overload1: "/** Formats a number with two decimals, or a date as YYYY-MM-DD. */\nexport function format(value: number): string;"
// skeleton format@overload2: "export function format(value: Date): string;"
// skeleton formatters.currency: "currency(amount: number): string"
// skeleton formatters.nested.squareMeters: "squareMeters: (n: number) =>"
// skeleton formatters.nested: "nested:"
// skeleton formatters.percent: "percent: (ratio: number): string =>"
// skeleton formatters: "export const formatters ="
// skeleton isoDate: "function isoDate(d: Date): string"
// skeleton shout: "export default function shout(text: string): string"
// skeleton withUnit: "export const withUnit =\n  (unit: string): Formatter<number> =>"
// edge contains <file> -> Formatter (confidence 1, phase-a)
// edge contains <file> -> format (confidence 1, phase-a)
// edge contains <file> -> format@overload1 (confidence 1, phase-a)
// edge contains <file> -> format@overload2 (confidence 1, phase-a)
// edge contains <file> -> formatters (confidence 1, phase-a)
// edge contains <file> -> isoDate (confidence 1, phase-a)
// edge contains <file> -> shout (confidence 1, phase-a)
// edge contains <file> -> withUnit (confidence 1, phase-a)
// edge contains formatters -> formatters.currency (confidence 1, phase-a)
// edge contains formatters -> formatters.nested (confidence 1, phase-a)
// edge contains formatters -> formatters.percent (confidence 1, phase-a)
// edge contains formatters.nested -> formatters.nested.squareMeters (confidence 1, phase-a)
