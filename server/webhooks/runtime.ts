/** The keyid of a consumer's signatures and its `key_id` field: one key pair per consumer, for its life. */
export function webhookKeyId(consumerId: number): string {
  return `ed25519-${consumerId}`;
}
