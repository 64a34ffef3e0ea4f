import type { MessageKey } from '../i18n/en';

export type ContractLike = {
  sent_time?: string | null;
  is_signed?: boolean;
  is_rejected?: boolean;
  withdrawn_time?: string | null;
};
export type ContractStatus = 'draft' | 'sent' | 'signed' | 'rejected' | 'expired' | 'withdrawn';

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
