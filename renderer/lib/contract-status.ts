import type { MessageKey } from '../i18n/en';

export type ContractLike = { sent_time?: string | null; is_signed?: boolean; is_rejected?: boolean };
export type ContractStatus = 'draft' | 'sent' | 'signed' | 'rejected';

/** The list's `status` filter values, read from the contract's flags. */
export function contractStatus(contract: ContractLike): ContractStatus {
  if (contract.is_signed) return 'signed';
  if (contract.is_rejected) return 'rejected';
  if (contract.sent_time) return 'sent';
  return 'draft';
}

export const STATUS_TONE = { draft: 'neutral', sent: 'info', signed: 'success', rejected: 'danger' } as const;
export const STATUS_LABEL: Record<ContractStatus, MessageKey> = {
  draft: 'status.draft',
  sent: 'status.sent',
  signed: 'status.signed',
  rejected: 'status.rejected',
};
