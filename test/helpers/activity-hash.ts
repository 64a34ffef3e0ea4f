import { createHash } from 'node:crypto';

/** The documented canonical form, written here from the documentation (not imported from the server). */
export function recompute(entry: any, contract: string): string {
  const details = Object.fromEntries(
    Object.keys(entry.details)
      .sort()
      .map((key) => [key, entry.details[key]]),
  );
  const canonical = JSON.stringify([
    'signdesk-activity-v1',
    contract,
    entry.sequence,
    new Date(entry.recorded_ms).toISOString(),
    entry.event,
    entry.subject,
    entry.actor ?? '',
    entry.user_agent,
    entry.ip_address,
    details,
    entry.previous_hash,
  ]);
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}
