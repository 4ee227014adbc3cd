// Work in progress: the parser still finds the definitions around the syntax error.
export function ready(): boolean {
  return true;
}

export function broken(: number {
  return ready(
}
