import type { TContract } from '../../shared/api/contracts';
import type { ContractStatus as ApiContractStatus } from '../../shared/api/enums';
import type { MessageKey } from '../i18n/en';

/** A contract, or a row of a list that holds the flags its state is read from. */
export type ContractLike = Partial<Pick<TContract, 'sent_time' | 'is_signed' | 'is_rejected' | 'withdrawn_time'>>;
/** The API's status filter, and the two states the office sees apart from `sent`. */
export type ContractStatus = ApiContractStatus | 'expired' | 'withdrawn';

/**
 * The list's `status` filter values, read from the contract's flags; `withdrawn` from its
 * `withdrawn_time`, `expired` only when the caller knows it (the activity log's
 * `contract.expired`): the API keeps both `sent`.
 */
export function contractStatus(contract: ContractLike, isExpired = false): ContractStatus {
  if (contract.is_signed) return 'signed';
  if (contract.is_rejected) return 'rejected';
  if (contract.withdrawn_time) return 'withdrawn';
  if (contract.sent_time) return isExpired ? 'expired' : 'sent';
  return 'draft';
}

export const STATUS_TONE = {
  draft: 'neutral',
  sent: 'info',
  signed: 'success',
  rejected: 'danger',
  expired: 'warning',
  withdrawn: 'warning',
} as const;
export const STATUS_LABEL: Record<ContractStatus, MessageKey> = {
  draft: 'status.draft',
  sent: 'status.sent',
  signed: 'status.signed',
  rejected: 'status.rejected',
  expired: 'status.expired',
  withdrawn: 'status.withdrawn',
};
