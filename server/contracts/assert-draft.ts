import type { ContractRow } from '../db/repos/contracts';
import { AppError } from '../core/errors';

/** A contract is read-only once sent: every change to it and its parts answers 409. */
export function assertDraft(contract: Pick<ContractRow, 'id' | 'status'>): void {
  if (contract.status === 'draft') return;
  throw new AppError(
    'contract-state',
    `Contract /api/contracts/${contract.id} is ${contract.status} and can no longer be changed; only a draft can.`,
  );
}
