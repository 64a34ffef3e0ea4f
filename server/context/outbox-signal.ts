/**
 * How code that writes messages or changes their settings tells the outbox worker to look now
 * rather than at its next poll. Without a worker (the CLI) a wake-up goes nowhere and the
 * server's worker finds the messages at its next poll.
 */
export type OutboxSignal = {
  wake(): void;
  /** The worker's hook; returns a function that removes it. */
  listen(listener: () => void): () => void;
};

export function createOutboxSignal(): OutboxSignal {
  const listeners = new Set<() => void>();
  return {
    wake() {
      for (const listener of listeners) listener();
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
