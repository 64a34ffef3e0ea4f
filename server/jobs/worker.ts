/** A background loop of the service (webhook deliveries, the mail and SMS outbox): app/workers.ts starts and stops them all. */
export type Worker = {
  name: string;
  /** Starts the loop; resolves once its start-up reads and writes are done. */
  start(): void | Promise<void>;
  /** Stops taking new work and resolves when the work in flight has finished. */
  stop(): Promise<void>;
};
