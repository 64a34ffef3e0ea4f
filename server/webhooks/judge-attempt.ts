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

/**
 * Applies the retry schedule: `courseAttempts` attempts (this one included) have been made
 * since the delivery started; the n-th retry follows the n-th delay after the attempt before
 * it, and after the last delay's attempt the delivery has failed.
 */
export function judgeAttempt(
  result: Pick<PostResult, 'statusCode' | 'isTimeout'>,
  courseAttempts: number,
  attemptStartedAt: number,
  scheduleS: readonly number[],
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
    nextAttemptAt: attemptStartedAt + Math.round(delayS * 1000),
    isPermanentError: false,
  };
}
