export type Formatter<T> = (value: T) => string;

/** Formats a number with two decimals, or a date as YYYY-MM-DD. */
export function format(value: number): string;
export function format(value: Date): string;
export function format(value: number | Date): string {
  return typeof value === 'number' ? value.toFixed(2) : isoDate(value);
}

function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export const formatters = {
  currency(amount: number): string {
    return `$${format(amount)}`;
  },
  percent: (ratio: number): string => `${format(ratio * 100)}%`,
  nested: {
    squareMeters: (n: number) => `${format(n)} m²`,
  },
};

export const withUnit =
  (unit: string): Formatter<number> =>
  (n) =>
    `${format(n)} ${unit}`;

export default function shout(text: string): string {
  return text.toUpperCase();
}
