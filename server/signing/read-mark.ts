import type { TSigningMark } from '../../shared/api/signing';
import { MAX_MARK_BYTES, SCRIPT_FACES, type ScriptFace } from '../../shared/api/signing';
import type { AppContext } from '../context/app-context';
import type { PartyRow } from '../db/repos/parties';
import { AppError, validationFailed } from '../core/errors';
import { checkMarkSize } from '../pdf/mark-size';

/** A party's mark as stored and stamped: typed in a face, or drawn or uploaded pictures (checked PNGs). */
export type PartyMark = {
  kind: 'typed' | 'drawn' | 'uploaded';
  face: ScriptFace;
  signaturePng: Uint8Array | null;
  initialsPng: Uint8Array | null;
};

/** A signer that sends no mark (an older client, the API's auto_sign) signs with its name typed in the first face. */
export const DEFAULT_MARK: PartyMark = { kind: 'typed', face: SCRIPT_FACES[0], signaturePng: null, initialsPng: null };

/**
 * The mark a party sends with its answer, checked: only a party that signs makes one; pictures
 * must be PNG or JPEG within the size limit and decode (in the PDF sandbox, where they are
 * re-encoded and their paper taken out). Every problem is one validation line.
 */
export async function readMark(
  ctx: AppContext,
  party: PartyRow,
  mark: TSigningMark | undefined,
): Promise<PartyMark | undefined> {
  if (party.signType !== 'DEFAULT') {
    if (mark) throw validationFailed(['mark: only a party that signs makes a mark; an approver approves without one']);
    return undefined;
  }
  if (!mark) return DEFAULT_MARK;
  if (mark.kind === 'typed') return { ...DEFAULT_MARK, face: mark.face };
  // Judged by their headers first (microseconds), so that only pictures worth decoding cost the
  // PDF sandbox anything, and those count against the link.
  const signature = checkPicture('mark.signature', mark.signature);
  const initials = mark.initials ? checkPicture('mark.initials', mark.initials) : null;
  limitPictureRate(ctx, party);
  const source = `party:${party.id}`;
  const [signaturePng, initialsPng] = await Promise.all([
    readPicture(ctx, 'mark.signature', signature, source),
    initials ? readPicture(ctx, 'mark.initials', initials, source) : Promise.resolve(null),
  ]);
  return { kind: mark.kind, face: SCRIPT_FACES[0], signaturePng, initialsPng };
}

/** Pictures a link may have decoded a minute: a party needs one or two; an attacker gets no more. */
const PICTURES_PER_MINUTE = 10;

function limitPictureRate(ctx: AppContext, party: PartyRow): void {
  const decision = ctx.rateLimiter.take(`sign-picture:${party.id}`, PICTURES_PER_MINUTE, ctx.now());
  if (decision.isAllowed) return;
  const wait = Math.max(1, Math.ceil(((decision.resetAt ?? ctx.now()) - ctx.now()) / 1000));
  throw new AppError('rate-limited', `Too many pictures sent on this link; try again in ${wait} s.`, {
    headers: { 'Retry-After': String(wait) },
  });
}

/** The picture's bytes, within the byte limit and the pixel budget its header states (no decoding). */
function checkPicture(field: string, dataUrl: string): Uint8Array {
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  if (bytes.length > MAX_MARK_BYTES)
    throw validationFailed([`${field}: is larger than ${MAX_MARK_BYTES / 1024 / 1024} MiB`]);
  try {
    checkMarkSize(bytes);
  } catch (error) {
    throw validationFailed([`${field}: ${error instanceof Error ? error.message : 'the picture could not be read'}`]);
  }
  return bytes;
}

/** Decoded and made safe in the PDF sandbox, queued as the link's own work (fair beside the office's). */
async function readPicture(ctx: AppContext, field: string, bytes: Uint8Array, source: string): Promise<Uint8Array> {
  try {
    return (await ctx.pdf.run('prepare-mark', { bytes }, { source })).png;
  } catch (error) {
    const isOurs = error instanceof Error && error.name === 'MarkImageError';
    throw validationFailed([`${field}: ${isOurs ? error.message : 'the picture could not be read'}`]);
  }
}

/** The stored row of a mark, for the acceptance's transaction. */
export function markRow(partyId: number, mark: PartyMark, now: number) {
  return {
    partyId,
    kind: mark.kind,
    face: mark.face,
    signaturePng: mark.signaturePng ? Buffer.from(mark.signaturePng) : null,
    initialsPng: mark.initialsPng ? Buffer.from(mark.initialsPng) : null,
    createdAt: now,
  };
}

/** A stored mark as the seal takes it. */
export function markOfRow(row: {
  kind: string;
  face: string;
  signaturePng: Buffer | null;
  initialsPng: Buffer | null;
}): PartyMark {
  const face = (SCRIPT_FACES as readonly string[]).includes(row.face) ? (row.face as ScriptFace) : SCRIPT_FACES[0];
  return { kind: row.kind as PartyMark['kind'], face, signaturePng: row.signaturePng, initialsPng: row.initialsPng };
}
