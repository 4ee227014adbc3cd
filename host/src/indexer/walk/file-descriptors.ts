import { closeSync, constants } from 'node:fs';

/** `O_NONBLOCK` where the platform has it: a FIFO opened for reading must not wait for a writer. */
export const NON_BLOCK = constants.O_NONBLOCK ?? 0;

/** Closes a descriptor the walk only read from: a failed close loses nothing, so it is ignored. */
export function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // nothing was written through it
  }
}
