import { parseFileValue, parseOptions } from '../../shared/field-answers';
import type { AnnotationRow } from '../db/repos/annotations';
import type { Language } from '../../shared/api/enums';
import type { TSigningState } from '../../shared/api/signing';
import type { AppContext } from '../context/app-context';
import type { PartyRow } from '../db/repos/parties';
import { parsePageSizes } from '../contracts/contract-fields';
import type { LinkAccess } from './link-access';
import { maskedDestination } from './party-code';
import { turnOf } from './party-turns';
import { isAnswering } from '../../shared/signing-order';
import { PAGE_IMAGE_WIDTHS } from '../../shared/api/signing';
import { partyPath } from '../../shared/api/paths';
import { readFrameOrigins } from '../settings/frame-origins';
import { accentStylePath, logoPath, readBrand } from '../brand/read-brand';

/** The version part of page image URLs: the original's hash, so that an image may be cached for good. */
export const documentVersion = (sha256: string) => sha256.slice(0, 16);

/**
 * Everything the signing page needs, and nothing about the other parties beyond a count. A
 * link that is not identified (the code not entered) or not out yet (a draft) gets only what
 * the code page needs: the office, the language, where a code went, the origins that may frame
 * the page and the page's CSRF token; not the document's name, the party's name, its fields,
 * attachments or the progress, nor the contract's and the party's API paths (their ids tell
 * how many contracts the office has). An expired or withdrawn link says what it was, without
 * the document.
 * `base` is the link's own path (/sign/<token>): the token is not kept in clear.
 */
export async function signingState(
  ctx: AppContext,
  party: PartyRow,
  access: LinkAccess,
  base: string,
  csrfToken: string,
): Promise<TSigningState> {
  const { contract, parties, stage } = access;
  const now = ctx.now();
  const { officeName, logo, accentColor } = await readBrand(ctx, contract.emailFromName);
  const brand = {
    logo: logo ? { url: logoPath(logo), width: logo.width, height: logo.height } : null,
    accentStyle: accentColor ? accentStylePath(accentColor) : null,
  };
  const language = contract.language as Language;
  const signType = party.signType as TSigningState['party']['signType'];
  const today = ctx.timestamp(now).slice(0, 10);
  const frameOrigins = await readFrameOrigins(ctx);
  if (stage === 'needs-code' || stage === 'draft') {
    const code = stage === 'needs-code' ? await ctx.repos.partyCodes.find(party.id) : undefined;
    return {
      stage,
      language,
      officeName,
      brand,
      contract: {
        name: '',
        pages: [],
        documentUrl: `${base}/document.pdf`,
        signedPdfUrl: null,
        pageImages: null,
        expiresInMs: null,
      },
      today,
      embedding: { frameOrigins, contract: null, party: null },
      party: { name: '', signType, rejectCause: null, signTime: null, identityNumber: null, mayDelegate: false },
      codeSentTo: code && code.expiresAt > now ? maskedDestination(contract, party) : null,
      fields: [],
      attachments: [],
      progress: { answered: 0, total: 0 },
      csrfToken,
    };
  }
  const isVisible = access.maySeeDocument;
  const answering = parties.filter((candidate) => isAnswering(turnOf(candidate)));
  const sha256 = isVisible ? await ctx.repos.files.getSha256(contract.originalFileId) : undefined;
  return {
    stage,
    language,
    officeName,
    brand,
    contract: {
      name: contract.name,
      pages: isVisible ? parsePageSizes(contract.pageSizes).map(([width, height]) => ({ width, height })) : [],
      documentUrl: `${base}/document.pdf`,
      signedPdfUrl: contract.status === 'signed' ? `${base}/signed.pdf` : null,
      pageImages: sha256 ? { base: `${base}/pages/${documentVersion(sha256)}`, widths: [...PAGE_IMAGE_WIDTHS] } : null,
      expiresInMs: contract.expireAt === null ? null : Math.max(0, contract.expireAt - now),
    },
    today,
    embedding: { frameOrigins, contract: `/api/contracts/${contract.id}`, party: partyPath(party) },
    party: {
      name: party.name,
      signType,
      rejectCause: party.rejectCause,
      signTime: ctx.timestampOrNull(party.signTime),
      identityNumber: contract.showIdentityNumber && party.identityNumber !== '' ? party.identityNumber : null,
      mayDelegate: contract.allowDelegation && stage === 'ready' && signType !== 'VIEWER',
    },
    codeSentTo: null,
    fields: isVisible
      ? (await ctx.repos.annotations.listOfParty(party.id)).map((annotation) => ({
          id: annotation.id,
          type: annotation.type as TSigningState['fields'][number]['type'],
          page: annotation.pdfPage,
          x: annotation.posX,
          y: annotation.posY,
          width: annotation.width,
          height: annotation.height,
          isRequired: annotation.inputRequired,
          content: shownContent(annotation),
          label: annotation.label,
          hint: annotation.hint,
          options: parseOptions(annotation.options),
          fileUrl:
            annotation.type === 'ATTACHMENT' && annotation.value !== null
              ? `${base}/fields/${annotation.id}/file`
              : null,
        }))
      : [],
    attachments: isVisible
      ? (await ctx.repos.attachments.listInContract(contract.id)).map((attachment) => ({
          name: attachment.name,
          url: `${base}/attachments/${attachment.id}`,
          contentType: attachment.contentType,
        }))
      : [],
    progress: { answered: answering.filter((candidate) => candidate.isAccept).length, total: answering.length },
    csrfToken,
  };
}

/** What a field shows: its value once signed (an attachment by its file name), else its prefilled text. */
function shownContent(annotation: AnnotationRow): string {
  if (annotation.value === null) return annotation.content;
  if (annotation.type === 'ATTACHMENT') return parseFileValue(annotation.value)?.name ?? '';
  return annotation.value;
}
