import type { KeyStore } from '../crypto/key-store';
import { createWebhookKeyring, type WebhookKeyring } from '../crypto/webhook-keys';

/** What the webhook parts share through AppContext: the consumers' keys and a doorbell for the webhook worker. */
export type WebhookRuntime = {
  keyring: WebhookKeyring;
  /** Deliveries may have become due (call after the commit); a no-op where no worker runs (the CLI). */
  wake(): void;
  /** The webhook worker listens here; returns the way to stop listening. */
  onWake(listener: () => void): () => void;
};

export function createWebhookRuntime(keys: KeyStore): WebhookRuntime {
  const listeners = new Set<() => void>();
  return {
    keyring: createWebhookKeyring(keys),
    wake() {
      for (const listener of listeners) listener();
    },
    onWake(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
