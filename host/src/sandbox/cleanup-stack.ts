/**
 * Undo actions collected while preparing a launch, run in reverse order once. Used both
 * when preparation fails half-way and as LaunchCommand.cleanup.
 */
export class CleanupStack {
  private readonly actions: (() => Promise<void>)[] = [];
  private done: Promise<void> | undefined;

  /** Registers an undo action (run last-in, first-out). */
  push(action: () => Promise<void>): void {
    this.actions.push(action);
  }

  /** Runs every action once, in reverse order, ignoring individual failures; idempotent. */
  run(): Promise<void> {
    this.done ??= (async () => {
      for (const action of this.actions.reverse()) {
        try {
          await action();
        } catch {
          // keep undoing the rest
        }
      }
    })();
    return this.done;
  }
}
