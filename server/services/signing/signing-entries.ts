import { createHash } from 'node:crypto';
import type { AnnotationRow } from '../../db/repos/annotations';
import type { PartyRow } from '../../db/repos/parties';
import type { ActivityInput, RequestOrigin } from '../contracts/log-activity';
import { partyPath } from '../contracts/save-party';

/**
 * The activity entries of sending and signing, made in one place: the sealed audit trail prints
 * them (with their hashes) before the transaction writes them, so both must be the same.
 */
export function sentEntry(contractId: number, send: { isSilent: boolean; isAutoSign?: boolean; userId: number; origin: RequestOrigin }, time: number): ActivityInput {
  return {
    contractId,
    event: 'contract.sent',
    userId: send.userId,
    details: { silent: send.isSilent, auto_sign: send.isAutoSign ? true : undefined },
    time,
    ...send.origin,
  };
}

/** A party's signature or approval: the name it typed, its mark, how it was identified. */
export function acceptanceEntry(
  party: PartyRow,
  acceptance: { signatureName: string; origin: RequestOrigin; authentication: string },
  annotations: readonly AnnotationRow[],
  time: number,
): ActivityInput {
  return {
    contractId: party.contractId,
    event: party.signType === 'APPROVER' ? 'party.approved' : 'party.signed',
    subject: partyPath(party),
    details: { signature_name: acceptance.signatureName, authentication: acceptance.authentication, ...markOf(party, annotations) },
    time,
    ...acceptance.origin,
  };
}

export function signedEntry(contractId: number, time: number): ActivityInput {
  return { contractId, event: 'contract.signed', userAgent: '', ipAddress: '', time };
}

/** The party's signature mark: its typed name in script, or an image (drawn or uploaded) named by its hash. */
function markOf(party: PartyRow, annotations: readonly AnnotationRow[]): { mark?: string; mark_sha256?: string } {
  const marks = annotations.filter((annotation) => annotation.partyId === party.id && (annotation.type === 'SIGNATURE' || annotation.type === 'INITIALS'));
  if (marks.length === 0) return {};
  const image = marks.map((annotation) => annotation.value ?? '').find((value) => value.startsWith('data:image/'));
  if (!image) return { mark: 'typed' };
  const data = Buffer.from(image.slice(image.indexOf(',') + 1), 'base64');
  return { mark: 'image', mark_sha256: createHash('sha256').update(data).digest('hex') };
}
