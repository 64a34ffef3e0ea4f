import type { WebhookAttemptOutcome } from '../../shared/api/webhooks';
import type { PostResult } from './post-delivery';

export type AttemptVerdict = {
  outcome: WebhookAttemptOutcome;
  /** The delivery's state after this attempt. */
  state: 'pending' | 'delivered' | 'failed';
  nextAttemptAt: number | null;
  /** Counts towards disabling the consumer (ten in a row). */
  isPermanentError: boolean;
};

/** What a consumer's answer means (docs/decisions.md, "Webhooks"). */
export function classifyAnswer(
  result: Pick<PostResult, 'statusCode' | 'isTimeout'>,
): 'delivered' | 'retry' | 'permanent' {
  const { statusCode } = result;
  if (statusCode === null) return result.isTimeout ? 'permanent' : 'retry';
  if (statusCode >= 200 && statusCode < 300) return 'delivered';
  if ((statusCode >= 300 && statusCode < 400) || statusCode === 410) return 'permanent';
  // 429, other 4xx, 5xx (and any odd status) are worth another try.
  return 'retry';
}

/** A retry comes up to this share of its delay early or late, */
export const RETRY_JITTER_SHARE = 0.1;
/** and never more than this far off the schedule. */
export const RETRY_JITTER_MAX_MS = 60_000;

/**
 * A retry's delay with jitter, as svix does: deliveries that failed together (a receiver down
 * for a minute, tens of consumers of one event) are not all retried in the same second, and an
 * instance taking over another's queue does not meet them as one burst. `spread` is in [-1, 1].
 */
export function jitteredDelayMs(delayS: number, spread: number): number {
  const delayMs = Math.round(delayS * 1000);
  const reach = Math.min(delayMs * RETRY_JITTER_SHARE, RETRY_JITTER_MAX_MS);
  return Math.max(0, delayMs + Math.round(reach * Math.max(-1, Math.min(1, spread))));
}

/**
 * Applies the retry schedule: `courseAttempts` attempts (this one included) have been made
 * since the delivery started; the n-th retry follows the n-th delay (with jitter) after the
 * attempt before it, and after the last delay's attempt the delivery has failed.
 */
export function judgeAttempt(
  result: Pick<PostResult, 'statusCode' | 'isTimeout'>,
  courseAttempts: number,
  attemptStartedAt: number,
  scheduleS: readonly number[],
  spread: number = Math.random() * 2 - 1,
): AttemptVerdict {
  const kind = classifyAnswer(result);
  if (kind === 'delivered')
    return { outcome: 'delivered', state: 'delivered', nextAttemptAt: null, isPermanentError: false };
  if (kind === 'permanent')
    return { outcome: 'permanent', state: 'failed', nextAttemptAt: null, isPermanentError: true };
  const delayS = scheduleS[courseAttempts - 1];
  if (delayS === undefined) return { outcome: 'failed', state: 'failed', nextAttemptAt: null, isPermanentError: false };
  return {
    outcome: 'retry',
    state: 'pending',
    nextAttemptAt: attemptStartedAt + jitteredDelayMs(delayS, spread),
    isPermanentError: false,
  };
}
