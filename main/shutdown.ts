import type { HostShutdown } from './host-client';

/** The longest the shell waits for deliveries and mail in flight before ending the server. */
export const SERVER_SHUTDOWN_TIMEOUT_MS = 30_000;

export type QuitSteps = {
  /** The tray says the server is finishing its work. */
  showStopping(): void;
  /** Windows go first, so the UI makes no new requests during the drain. */
  closeWindows(): void;
  /** Stops status polling and restarts, asks the server to finish deliveries in flight and close the database; undefined when none runs. */
  stopServer(timeoutMs: number): Promise<HostShutdown | undefined>;
  removeTray(): void;
  exit(code: number): void;
  log(message: string, err?: unknown): void;
};

/**
 * The quit sequence, in order, run once however often quit is asked for. Every step runs even
 * when one before it fails, and the app always exits at the end: non-zero when the server had
 * to be killed or did not close cleanly (its durable queue still loses nothing).
 */
export function createQuit(steps: QuitSteps, timeoutMs = SERVER_SHUTDOWN_TIMEOUT_MS): () => Promise<void> {
  let quitting: Promise<void> | undefined;
  let hasFailed = false;
  const attempt = async <T>(name: string, step: () => T | Promise<T>): Promise<T | undefined> => {
    try {
      return await step();
    } catch (err) {
      hasFailed = true;
      steps.log(`quit: ${name} failed`, err);
      return undefined;
    }
  };
  return () => {
    quitting ??= (async () => {
      await attempt('showStopping', steps.showStopping);
      await attempt('closeWindows', steps.closeWindows);
      const stopped = await attempt('stopServer', () => steps.stopServer(timeoutMs));
      if (stopped?.isKilled) steps.log(`quit: the server did not finish within ${timeoutMs} ms and was ended`);
      await attempt('removeTray', steps.removeTray);
      const isServerClean = stopped === undefined || (stopped.code === 0 && !stopped.isKilled);
      steps.exit(isServerClean && !hasFailed ? 0 : 1);
    })();
    return quitting;
  };
}
