import { partyPath } from '../../shared/api/paths';
import { createHash } from 'node:crypto';
import type { PartyRow } from '../db/repos/parties';
import type { ActivityInput, RequestOrigin } from '../activity/log-activity';
import type { PartyMark } from './read-mark';

/**
 * The activity entries of sending and signing, made in one place: the sealed audit trail prints
 * them (with their hashes) before the transaction writes them, so both must be the same.
 */
export function sentEntry(
  contractId: number,
  send: { isSilent: boolean; isAutoSign?: boolean; userId: number; origin: RequestOrigin },
  time: number,
): ActivityInput {
  return {
    contractId,
    event: 'contract.sent',
    userId: send.userId,
    details: { silent: send.isSilent, auto_sign: send.isAutoSign ? true : undefined },
    time,
    ...send.origin,
  };
}

/**
 * A party's signature or approval: the name it typed, its mark, how it was identified. The party
 * acts from its link; with auto_sign the sending user answers for it.
 */
export function acceptanceEntry(
  party: PartyRow,
  acceptance: {
    signatureName: string;
    origin: RequestOrigin;
    authentication: string;
    mark?: PartyMark | undefined;
    userId?: number | undefined;
  },
  time: number,
): ActivityInput {
  const isAutoSign = acceptance.userId !== undefined;
  return {
    contractId: party.contractId,
    event: party.signType === 'APPROVER' ? 'party.approved' : 'party.signed',
    subject: partyPath(party),
    ...(isAutoSign ? { userId: acceptance.userId } : { partyId: party.id }),
    details: {
      // Named here, not by logActivity: the sealed audit trail chains this entry before it is written.
      party_name: party.name,
      signature_name: acceptance.signatureName,
      authentication: acceptance.authentication,
      auto_sign: isAutoSign ? true : undefined,
      ...markDetails(acceptance.mark),
    },
    time,
    ...acceptance.origin,
  };
}

export function signedEntry(contractId: number, time: number): ActivityInput {
  return { contractId, event: 'contract.signed', userAgent: '', ipAddress: '', time };
}

/** The party's mark: typed (in which face), or drawn or uploaded pictures named by their SHA-256 (of the PNG stamped). */
function markDetails(mark: PartyMark | undefined): {
  mark?: string;
  face?: string;
  mark_sha256?: string;
  initials_sha256?: string;
} {
  if (!mark) return {};
  if (mark.kind === 'typed') return { mark: 'typed', face: mark.face };
  const sha256 = (png: Uint8Array | null) => (png ? createHash('sha256').update(png).digest('hex') : undefined);
  return { mark: mark.kind, mark_sha256: sha256(mark.signaturePng), initials_sha256: sha256(mark.initialsPng) };
}
