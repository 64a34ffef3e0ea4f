import type { Language } from '../../../shared/api/enums';
import type { TSigningState } from '../../../shared/api/signing';
import type { AppContext } from '../../context';
import type { PartyRow } from '../../db/repos/parties';
import { parsePageSizes } from '../contracts/contract-fields';
import type { LinkAccess } from './link-access';
import { maskedDestination } from './party-code';
import { turnOf } from './party-turns';
import { isAnswering } from '../../../shared/signing-order';

/**
 * Everything the signing page needs, and nothing about the other parties beyond a count. A
 * link that may not see the document (the code not entered, a draft) gets only what the code
 * page needs: the office, the language, where a code went and the page's CSRF token; not the
 * document's name, the party's name, its fields, attachments or the progress.
 */
export function signingState(ctx: AppContext, party: PartyRow, access: LinkAccess, base: string, csrfToken: string): TSigningState {
  const { contract, parties, stage } = access;
  const officeName = contract.emailFromName || ctx.repos.office.get(ctx.now()).name;
  const language = contract.language as Language;
  const signType = party.signType as TSigningState['party']['signType'];
  if (!access.maySeeDocument) {
    const code = stage === 'needs-code' ? ctx.repos.partyCodes.find(party.id) : undefined;
    return {
      stage,
      language,
      officeName,
      contract: { name: '', pages: [], documentUrl: `${base}/document.pdf`, signedPdfUrl: null },
      party: { name: '', signType, rejectCause: null, signTime: null },
      codeSentTo: code && code.expiresAt > ctx.now() ? maskedDestination(contract, party) : null,
      fields: [],
      attachments: [],
      progress: { answered: 0, total: 0 },
      csrfToken,
    };
  }
  const answering = parties.filter((candidate) => isAnswering(turnOf(candidate)));
  return {
    stage,
    language,
    officeName,
    contract: {
      name: contract.name,
      pages: parsePageSizes(contract.pageSizes).map(([width, height]) => ({ width, height })),
      documentUrl: `${base}/document.pdf`,
      signedPdfUrl: contract.status === 'signed' ? `${base}/signed.pdf` : null,
    },
    party: {
      name: party.name,
      signType,
      rejectCause: party.rejectCause,
      signTime: ctx.timestampOrNull(party.signTime),
    },
    codeSentTo: null,
    fields: ctx.repos.annotations.listOfParty(party.id).map((annotation) => ({
      id: annotation.id,
      type: annotation.type as TSigningState['fields'][number]['type'],
      page: annotation.pdfPage,
      x: annotation.posX,
      y: annotation.posY,
      width: annotation.width,
      height: annotation.height,
      isRequired: annotation.inputRequired,
      content: annotation.value ?? annotation.content,
    })),
    attachments: ctx.repos.attachments.listInContract(contract.id).map((attachment) => ({
      name: attachment.name,
      url: `${base}/attachments/${attachment.id}`,
      contentType: attachment.contentType,
    })),
    progress: { answered: answering.filter((candidate) => candidate.isAccept).length, total: answering.length },
    csrfToken,
  };
}
