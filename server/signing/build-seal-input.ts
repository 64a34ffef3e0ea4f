import { createHash } from 'node:crypto';
import type { Language } from '../../shared/api/enums';
import type { AppContext } from '../context/app-context';
import type { AnnotationRow } from '../db/repos/annotations';
import type { ContractRow } from '../db/repos/contracts';
import type { PartyRow } from '../db/repos/parties';
import { AppError } from '../core/errors';
import { signingIdentityData } from '../crypto/signing-identity';
import type { SignedPdfEvidence, SignedPdfField, SignedPdfInput } from '../pdf/build-signed-pdf';
import { PdfReadError } from '../pdf/pdf-read-error';
import type { SignedPdfMark } from '../pdf/signed-pdf-types';
import { tagCoversOf } from '../contracts/tag-fields';
import { readBrand } from '../brand/read-brand';
import type { PartyMark } from './read-mark';
import { parseFileValue, parseOptions, shortHash } from '../../shared/field-answers';

/**
 * The values an annotation shows once signed: what the party entered. Marks take none: SIGNATURE
 * and INITIALS boxes show the party's mark (its picture, or its signing name, or that name's
 * initials, in its face).
 */
export function stampValue(annotation: AnnotationRow): string | boolean {
  if (annotation.type === 'CHECKBOX') return annotation.value === 'true';
  if (annotation.type === 'SIGNATURE' || annotation.type === 'INITIALS') return '';
  if (annotation.type === 'ATTACHMENT') {
    const file = parseFileValue(annotation.value);
    return file ? `${file.name} · SHA-256 ${shortHash(file.sha256)}` : '';
  }
  return annotation.value ?? annotation.content;
}

const sealMarkOf = (mark: PartyMark | undefined): SignedPdfMark | undefined =>
  mark && { face: mark.face, signaturePng: mark.signaturePng ?? undefined, initialsPng: mark.initialsPng ?? undefined };

const contactOf = (party: PartyRow) => [party.email, party.mobilePhone].filter(Boolean).join(', ');

/**
 * The signed PDF of a contract whose parties (as given: the accepted state about to be
 * committed) have all accepted: fields stamped, audit trail (with `evidence`: events, chain
 * head, attachments, timestamp authority), sealed with `timestampRoom` bytes kept for a token,
 * on the PDF sandbox's worker threads under their limits. An original that cannot be read there
 * (damaged, or made to stall a reader: possible only if the stored file was tampered with) is a
 * 400 invalid-pdf for the party answering, and nothing is committed.
 */
export async function buildContractSeal(
  ctx: AppContext,
  contract: ContractRow,
  parties: readonly PartyRow[],
  annotations: readonly AnnotationRow[],
  marks: ReadonlyMap<number, PartyMark>,
  completedAt: number,
  evidence: SignedPdfEvidence = {},
  timestampRoom = 0,
): Promise<Uint8Array> {
  const original = await ctx.repos.files.readFile(contract.originalFileId);
  if (!original) throw new Error(`contract ${contract.id} has lost its PDF`);
  const byId = new Map(parties.map((party) => [party.id, party]));
  const fields: SignedPdfField[] = [];
  for (const annotation of annotations) {
    const party = byId.get(annotation.partyId);
    if (!party || !annotation.renderWhenSigned || !party.isAccept) continue;
    fields.push({
      page: annotation.pdfPage,
      x: annotation.posX,
      y: annotation.posY,
      width: annotation.width,
      height: annotation.height,
      type: annotation.type as SignedPdfField['type'],
      value: stampValue(annotation),
      options: annotation.type === 'RADIO' ? (parseOptions(annotation.options) ?? undefined) : undefined,
      signerName: party.signatureName ?? party.name,
      mark: sealMarkOf(marks.get(party.id)),
      signedTime: party.signTime,
    });
  }
  const brand = await readBrand(ctx, contract.emailFromName);
  const input: SignedPdfInput = {
    original: original.data,
    brand: {
      officeName: brand.officeName,
      accentColor: brand.accentColor ?? undefined,
      logoPng: brand.logo ? new Uint8Array(brand.logo.png) : undefined,
    },
    fields,
    covers: tagCoversOf(annotations),
    language: contract.language as Language,
    now: new Date(completedAt),
    timestampRoom,
    audit: {
      ...evidence,
      documentName: contract.name || `Contract ${contract.id}`,
      documentSha256: original.sha256 || createHash('sha256').update(original.data).digest('hex'),
      contractId: contract.id,
      completedTime: completedAt,
      timeZone: ctx.config.timeZone,
      parties: parties.map((party) => ({
        name: party.name,
        signatureName: party.signatureName ?? undefined,
        mark: party.signType === 'DEFAULT' ? sealMarkOf(marks.get(party.id)) : undefined,
        contact: contactOf(party),
        // Only a contract that shows identity numbers prints them: the audit trail goes to every party.
        ...(contract.showIdentityNumber && party.identityNumber !== '' ? { identityNumber: party.identityNumber } : {}),
        signType: party.signType,
        ipAddress: party.answerIpAddress ?? '',
        userAgent: party.answerUserAgent ?? '',
        authentication: party.answerAuthentication ?? contract.requireAuth,
        sentTime: party.invitedAt,
        openedTime: party.openedAt,
        signedTime: party.signTime,
      })),
    },
  };
  // Sealed in the PDF sandbox: pdf-lib reads the uploaded original again there, under its limits.
  try {
    return await ctx.pdf.run('seal', { document: input, identity: signingIdentityData(await ctx.seal.identity()) });
  } catch (error) {
    if (!(error instanceof PdfReadError)) throw error;
    ctx.logger.warn({ contractId: contract.id, problem: error.problem }, 'the contract PDF cannot be sealed');
    throw new AppError(
      'invalid-pdf',
      `The document cannot be sealed: ${error.message} Tell the sender of the document.`,
    );
  }
}
