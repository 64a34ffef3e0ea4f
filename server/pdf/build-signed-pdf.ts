import { createHash } from 'node:crypto';
import type { PDFDocument } from 'pdf-lib';
import type { SigningIdentity } from '../crypto/signing-identity';
import { MAX_PDF_PAGES } from '../../shared/constants';
import { auditLabels } from './audit-labels';
import { auditColors } from './audit-canvas';
import { hasRightToLeft } from './bidi';
import { createTextWriter } from './text-writer';
import { LANGUAGE_INFO } from '../../shared/i18n/languages';
import { checkPageTree } from './check-page-tree';
import { drawAuditTrail, type AuditMark } from './draw-audit-trail';
import { writeIncrementalUpdate } from './incremental-update';
import { appendUpdate, changedObjects, openForUpdate, trailerOf } from './open-for-update';
import { readPdfTail } from './read-pdf-tail';
import { useNativeDeflate } from './native-deflate';
import { canRender, embedSealFonts, type SealFonts } from './seal-fonts';
import { fillSeal, prepareSeal } from './seal-signature';
import type { SignedPdfField, SignedPdfInput, SignedPdfParty } from './signed-pdf-types';
import { paintCovers, stampFields } from './stamp-fields';

export type {
  SignedPdfAudit,
  SignedPdfEvent,
  SignedPdfEvidence,
  SignedPdfField,
  SignedPdfFieldType,
  SignedPdfInput,
  SignedPdfParty,
} from './signed-pdf-types';

/**
 * The signed PDF: the original with each field's value drawn at its annotation, then the audit
 * trail pages, sealed with a PAdES signature (ETSI.CAdES.detached, DocMDP "no changes") by the
 * appliance's identity.
 *
 * Everything is appended to the original as ONE incremental update (new and changed objects
 * only, a cross-reference section of the original's kind chaining to it by /Prev), so the
 * original bytes are the exact prefix of the result: anyone can cut the file at the original's
 * length and compare hashes. Only an original whose `startxref` does not lead to a
 * cross-reference section (a damaged file that readers repair by scanning) is rewritten whole
 * first; the seal is still an incremental update on that rewrite.
 */
export async function buildSignedPdf(input: SignedPdfInput, identity: SigningIdentity): Promise<Uint8Array> {
  const { original, audit } = input;
  // The original is the signed range's prefix: its hash state is reused for the signature.
  const originalHash = createHash('sha256').update(original);
  if (originalHash.copy().digest('hex') !== audit.documentSha256.trim().toLowerCase()) {
    throw new Error('audit.documentSha256 is not the SHA-256 of the original document.');
  }

  const opened = await openForUpdate(original, { snapshot: true });
  const { doc, tail } = opened;
  // Before pdf-lib walks the pages: a hostile tree (the same child twice at every level) is refused here.
  checkPageTree(doc, MAX_PDF_PAGES);
  useNativeDeflate(doc.context);

  const fonts = await embedSealFonts(doc);
  // The Arabic faces only where something is written right to left: the page's language, a name, a value.
  const needsArabic =
    (input.language !== undefined && LANGUAGE_INFO[input.language].isRightToLeft) ||
    hasRightToLeft(JSON.stringify([audit, input.fields.map((field) => field.value), input.brand?.officeName]));
  const arabic = needsArabic ? await fonts.arabic() : undefined;
  // Without an Arabic face (none installed) an Arabic page would print question marks: English then.
  const language = input.language === 'ar' && !arabic ? 'en' : input.language;
  const labels = auditLabels(language);
  const writer = createTextWriter({
    isRightToLeft: language !== undefined && LANGUAGE_INFO[language].isRightToLeft,
    arabic,
    latin: { regular: fonts.regular, bold: fonts.bold },
  });
  const logo = input.brand?.logoPng ? await doc.embedPng(input.brand.logoPng).catch(() => undefined) : undefined;
  const signedTimes = new Map(audit.parties.map((party) => [party.name, party.signedTime]));
  const signedTimeOf = (field: SignedPdfField) =>
    field.signedTime ?? signedTimes.get(field.signerName) ?? audit.completedTime;
  const originalPageCount = doc.getPageCount();
  paintCovers(doc, input.covers ?? []);
  await stampFields({ doc, fonts, labels, writer, timeZone: audit.timeZone, signedTimeOf }, input.fields);

  const sealName = commonNameOf(identity);
  const seal = { subject: sealName, fingerprintSha256: identity.certificate.fingerprint256 };
  const marks = await Promise.all(audit.parties.map((party) => embedAuditMark(doc, fonts, party)));
  const auditPages = drawAuditTrail({
    doc,
    fonts,
    labels,
    writer,
    colors: auditColors(input.brand?.accentColor),
    brand: { officeName: input.brand?.officeName ?? '', logo },
    audit,
    originalPageCount,
    seal,
    isOriginalPrefix: tail !== undefined,
    marks,
  });
  const plan = prepareSeal(doc, identity, auditPages.at(-1)!, {
    time: input.now ?? new Date(),
    reason: labels.t('sealReason'),
    name: sealName,
    extraRoom: input.timestampRoom ?? 0,
  });
  // fontkit hands each subset over through a setTimeout-based stream shim: embedding the three
  // faces side by side overlaps those waits instead of queueing them (flush embeds one by one).
  const embedded = [fonts.regular, fonts.bold, fonts.script, ...(arabic ? [arabic.regular, arabic.bold] : [])];
  await Promise.all(embedded.map((font) => font.embed()));
  await doc.flush();

  if (tail) {
    const update = appendUpdate({ ...opened, tail }, [...changedObjects(opened), { ref: plan.ref, raw: plan.raw }]);
    return fillSeal(update, plan, identity, { prefix: original.length, hash: originalHash });
  }

  const rewritten = await doc.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false });
  const rewrittenTail = readPdfTail(rewritten);
  if (!rewrittenTail) throw new Error('The rewritten PDF has no cross-reference table.');
  const update = writeIncrementalUpdate(
    rewritten,
    rewrittenTail,
    [{ ref: plan.ref, raw: plan.raw }],
    trailerOf(doc, rewrittenTail.size),
  );
  return fillSeal(update, plan, identity);
}

/** A party's mark made ready for the audit trail: its picture embedded, or its typed name in its face. */
async function embedAuditMark(
  doc: PDFDocument,
  fonts: SealFonts,
  party: SignedPdfParty,
): Promise<AuditMark | undefined> {
  if (!party.mark) return undefined;
  if (party.mark.signaturePng) {
    const image = await doc.embedPng(party.mark.signaturePng).catch(() => undefined);
    if (image) return { image };
  }
  const text = party.signatureName || party.name;
  const face = await fonts.face(party.mark.face);
  return { font: canRender(face, text) ? face : fonts.regular, text };
}

function commonNameOf(identity: SigningIdentity): string {
  const line = identity.certificate.subject.split('\n').find((part) => part.startsWith('CN='));
  return line?.slice(3) ?? 'SignDesk';
}
