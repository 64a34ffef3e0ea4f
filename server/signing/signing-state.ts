import { partyPath } from '../../shared/api/paths';
import type { Language } from '../../shared/api/enums';
import type { SigningStage, TSigningState } from '../../shared/api/signing';
import type { AppContext } from '../core/context';
import type { ContractRow } from '../db/repos/contracts';
import type { PartyRow } from '../db/repos/parties';
import { parsePageSizes } from '../contracts/contract-fields';
import { isExpired } from './party-access';
import { maskedDestination } from './party-code';
import { turnOf } from './party-turns';
import { isAnswering, isInTurn } from '../../shared/signing-order';
import { PAGE_IMAGE_WIDTHS } from '../../shared/api/signing';
import { readFrameOrigins } from '../settings/frame-origins';

/** The version part of page image URLs: the original's hash, so that an image may be cached for good. */
export const documentVersion = (sha256: string) => sha256.slice(0, 16);

/** Where the party stands, as the signing page shows it. */
export function stageOf(ctx: AppContext, contract: ContractRow, party: PartyRow, parties: readonly PartyRow[], isVerified: boolean): SigningStage {
  if (contract.status === 'draft') return 'draft';
  if (contract.status === 'signed') return 'completed';
  if (contract.status === 'rejected') return party.rejectedAt === null ? 'closed-rejected' : 'rejected';
  if (contract.withdrawnAt !== null) return 'withdrawn';
  if (isExpired(ctx, contract)) return 'expired';
  if (party.isAccept) return 'accepted';
  if (party.signType !== 'VIEWER' && !isInTurn(turnOf(party), parties.map(turnOf), contract.partyOrderDefined)) return 'waiting-turn';
  if (contract.requireAuth !== 'NONE' && !isVerified) return 'needs-code';
  return 'ready';
}

/** Whether the party's page may show the document (its pages, fields and attachments) at this stage. */
export const canSeeDocument = (stage: SigningStage) => stage !== 'needs-code' && stage !== 'draft' && stage !== 'expired' && stage !== 'withdrawn';

/** Everything the signing page needs, and nothing about the other parties beyond a count. */
export function signingState(ctx: AppContext, party: PartyRow, isVerified: boolean, csrfToken: string): TSigningState {
  const contract = ctx.repos.contracts.findById(party.contractId);
  if (!contract) throw new Error(`party ${party.id} has no contract`);
  const parties = ctx.repos.parties.listInContract(contract.id);
  const stage = stageOf(ctx, contract, party, parties, isVerified);
  const base = `/sign/${party.signToken}`;
  const isVisible = canSeeDocument(stage);
  const answering = parties.filter((candidate) => isAnswering(turnOf(candidate)));
  const code = ctx.repos.partyCodes.find(party.id);
  const sha256 = isVisible ? ctx.repos.files.getSha256(contract.originalFileId) : undefined;
  const now = ctx.now();
  return {
    stage,
    language: contract.language as Language,
    officeName: contract.emailFromName || ctx.repos.office.get(ctx.now()).name,
    contract: {
      name: contract.name,
      pages: isVisible ? parsePageSizes(contract.pageSizes).map(([width, height]) => ({ width, height })) : [],
      documentUrl: `${base}/document.pdf`,
      signedPdfUrl: contract.status === 'signed' ? `${base}/signed.pdf` : null,
      pageImages: sha256 ? { base: `${base}/pages/${documentVersion(sha256)}`, widths: [...PAGE_IMAGE_WIDTHS] } : null,
      expiresInMs: contract.expireAt === null ? null : Math.max(0, contract.expireAt - now),
    },
    today: ctx.timestamp(now).slice(0, 10),
    embedding: { frameOrigins: readFrameOrigins(ctx), contract: `/api/contracts/${contract.id}`, party: partyPath(party) },
    party: {
      name: party.name,
      signType: party.signType as TSigningState['party']['signType'],
      rejectCause: party.rejectCause,
      signTime: ctx.timestampOrNull(party.signTime),
      identityNumber: contract.showIdentityNumber && party.identityNumber !== '' ? party.identityNumber : null,
    },
    codeSentTo: stage === 'needs-code' && code && code.expiresAt > ctx.now() ? maskedDestination(contract, party) : null,
    fields: isVisible
      ? ctx.repos.annotations.listOfParty(party.id).map((annotation) => ({
          id: annotation.id,
          type: annotation.type as TSigningState['fields'][number]['type'],
          page: annotation.pdfPage,
          x: annotation.posX,
          y: annotation.posY,
          width: annotation.width,
          height: annotation.height,
          isRequired: annotation.inputRequired,
          content: annotation.value ?? annotation.content,
        }))
      : [],
    attachments: isVisible
      ? ctx.repos.attachments.listInContract(contract.id).map((attachment) => ({
          name: attachment.name,
          url: `${base}/attachments/${attachment.id}`,
          contentType: attachment.contentType,
        }))
      : [],
    progress: { answered: answering.filter((candidate) => candidate.isAccept).length, total: answering.length },
    csrfToken,
  };
}
