/** Where the server reads the time. The system's in use; tests hand the server a clock they move. */
export type Clock = { now(): number };

export const systemClock: Clock = { now: () => Date.now() };
