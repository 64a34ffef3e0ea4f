import type { TSigningState } from '../../shared/api/signing';

export type SigningEvent = 'loaded' | 'signed' | 'rejected' | 'failed';

/**
 * Tells the page that frames this one what happened: `{ source: 'signdesk', event, stage,
 * contract, party }`, posted to each origin the admin allowed and to no other (the browser
 * drops a message whose target origin is not the parent's). Nothing is posted outside a frame.
 */
export function postSigningEvent(
  state: TSigningState | undefined,
  event: SigningEvent,
  detail: { reason?: string } = {},
): void {
  if (!state || window.parent === window) return;
  const message = {
    source: 'signdesk',
    event,
    stage: state.stage,
    contract: state.embedding.contract,
    party: state.embedding.party,
    ...detail,
  };
  for (const origin of state.embedding.frameOrigins) {
    try {
      window.parent.postMessage(message, origin);
    } catch {
      // An origin the browser cannot parse is simply not told.
    }
  }
}

/** The return URL with what happened added (`signdesk_event=signed|rejected`). */
export function returnUrlFor(returnUrl: string, event: 'signed' | 'rejected'): string {
  const url = new URL(returnUrl);
  url.searchParams.set('signdesk_event', event);
  return url.toString();
}
