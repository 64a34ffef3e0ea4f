import { initialsOf } from '../../shared/initials';
import { partyPath } from '../../shared/api/paths';
import type { AppContext } from '../context/app-context';
import type { ContractRow } from '../db/repos/contracts';
import type { PartyRow } from '../db/repos/parties';
import type { AnnotationRow } from '../db/repos/annotations';
import { inTransaction } from '../db/open-database';
import { AppError } from '../core/errors';
import { logActivity, type ActivityInput, type RequestOrigin } from '../activity/log-activity';
import { recordEvent } from '../webhooks/record-event';
import type { FieldFile } from './field-values';
import { markOfRow, markRow, type PartyMark } from './read-mark';
import { recordSeal } from '../evidence/record-seal';
import type { SealedContract } from '../evidence/record-seal';
import { sealContract } from './seal-contract';
import { acceptanceEntry, signedEntry } from './signing-entries';
import { enqueuePartyMessage } from './party-messages';
import { answersSnapshot, turnOf } from './party-turns';
import { isFullyAccepted } from '../../shared/signing-order';

/** One party's yes: the values of its fields, the name it signs with, where it answered from. */
export type Acceptance = {
  partyId: number;
  values: ReadonlyMap<number, string | boolean>;
  /** The files of its ATTACHMENT fields, stored with the answer. */
  files?: ReadonlyMap<number, FieldFile> | undefined;
  signatureName: string;
  /** The signer's mark; none for approvers. */
  mark?: PartyMark | undefined;
  origin: RequestOrigin;
  /** NONE, EMAIL_CODE, SMS_CODE or AUTO_SIGN: how the party was identified. */
  authentication: string;
  /** The user who answered for the party (auto_sign); else the party answered itself. */
  userId?: number;
};

/** Acceptances laid over one read of a contract: its parties and fields as they are once written. */
export type AcceptedContract = {
  contract: ContractRow;
  /** The answers as read; a commit whose transaction finds others starts over. */
  snapshot: string;
  parties: readonly PartyRow[];
  annotations: readonly AnnotationRow[];
  byParty: ReadonlyMap<number, Acceptance>;
  /** Every answering party has accepted: committing signs the contract. */
  isComplete: boolean;
};

/** The log moved on between sealing and committing (another entry came in): seal again. */
class ChainMoved extends Error {}

const ATTEMPTS = 3;
const contractPath = (id: number) => `/api/contracts/${id}`;

/** The acceptances over a read of the contract, its parties and its fields (nothing is written). */
export function applyAcceptances(
  contract: ContractRow,
  parties: readonly PartyRow[],
  annotations: readonly AnnotationRow[],
  acceptances: readonly Acceptance[],
  now: number,
): AcceptedContract {
  const byParty = new Map(acceptances.map((acceptance) => [acceptance.partyId, acceptance]));
  const accepted = parties.map((party) => {
    const acceptance = byParty.get(party.id);
    return acceptance ? applyInMemory(party, acceptance, now) : party;
  });
  return {
    contract,
    snapshot: answersSnapshot(contract.status, parties),
    parties: accepted,
    annotations: annotations.map((annotation) => withValue(annotation, byParty)),
    byParty,
    isComplete: isFullyAccepted(accepted.map(turnOf)),
  };
}

/**
 * The signed PDF, when the acceptances complete the contract. Its audit trail lists the entries
 * the committing transaction writes, in their order, and prints the chain head they make:
 * `entriesBefore` (a send's), the acceptances, then `contract.signed`.
 */
export async function sealAccepted(
  ctx: AppContext,
  accepted: AcceptedContract,
  entriesBefore: readonly ActivityInput[],
  now: number,
): Promise<SealedContract | undefined> {
  if (!accepted.isComplete) return undefined;
  const entries: ActivityInput[] = [
    ...entriesBefore,
    ...accepted.parties.flatMap((party) => {
      const acceptance = accepted.byParty.get(party.id);
      return acceptance ? [acceptanceEntry(party, acceptance, now)] : [];
    }),
    signedEntry(accepted.contract.id, now),
  ];
  const marks = await marksOf(ctx, accepted);
  return sealContract(ctx, accepted.contract, accepted.parties, accepted.annotations, marks, now, entries);
}

/**
 * Writes the acceptances inside the caller's transaction: the parties' answers, marks and field
 * values, an entry and `contract.party_signed` each, and with `sealed` the signed PDF, the
 * `signed` state, `contract.signed` and the download messages. Returns the contract and its
 * parties as they now are. Run the transaction through `inTransactionUnlessMoved` when sealed.
 */
export async function writeAcceptances(
  ctx: AppContext,
  contract: ContractRow,
  accepted: AcceptedContract,
  sealed: SealedContract | undefined,
  now: number,
): Promise<{ contract: ContractRow; parties: readonly PartyRow[] }> {
  for (const party of accepted.parties) {
    const acceptance = accepted.byParty.get(party.id);
    if (!acceptance) continue;
    await writeAcceptance(ctx, contract, party, acceptance, now);
    if (acceptance.mark) await ctx.repos.partyMarks.save(markRow(party.id, acceptance.mark, now));
  }
  for (const annotation of accepted.annotations) {
    const acceptance = accepted.byParty.get(annotation.partyId);
    if (!acceptance) continue;
    await ctx.repos.annotations.update(annotation.id, { value: annotation.value, updatedAt: now });
    const file = acceptance.files?.get(annotation.id);
    if (file)
      await ctx.repos.annotations.saveFile(
        annotation.id,
        await ctx.repos.files.putFile(file.bytes, file.contentType, now),
      );
  }
  // Without acceptances the parties are as read.
  const parties = accepted.byParty.size === 0 ? accepted.parties : await ctx.repos.parties.listInContract(contract.id);
  if (!sealed) return { contract, parties };
  return { contract: await finishSigned(ctx, contract, parties, sealed, now), parties };
}

/** The transaction of a commit; undefined when the answers or the log moved on meanwhile (start over). */
export async function inTransactionUnlessMoved<T>(
  ctx: AppContext,
  work: () => Promise<T | undefined>,
): Promise<T | undefined> {
  try {
    return await inTransaction(ctx.db, work);
  } catch (error) {
    if (error instanceof ChainMoved) return undefined;
    throw error;
  }
}

/**
 * Sealing is asynchronous, so the PDF is built from a read first; the transaction then checks
 * that nobody answered in between (else the attempt returns undefined and starts over), which
 * keeps `contract.signed` and `contract.rejected` exclusive without holding a transaction across
 * an await.
 */
export async function retryWhileMoved<T>(attempt: () => Promise<T | undefined>): Promise<T> {
  for (let count = 1; count <= ATTEMPTS; count += 1) {
    const committed = await attempt();
    if (committed !== undefined) return committed;
  }
  throw new AppError('service-unavailable', 'The contract changed while it was being signed; try again.');
}

function applyInMemory(party: PartyRow, acceptance: Acceptance, now: number): PartyRow {
  return {
    ...party,
    isAccept: true,
    signTime: now,
    signatureName: acceptance.signatureName,
    answerIpAddress: acceptance.origin.ipAddress,
    answerUserAgent: acceptance.origin.userAgent,
    answerAuthentication: acceptance.authentication,
    openedAt: party.openedAt ?? now,
    invitedAt: party.invitedAt ?? now,
  };
}

/** Every accepted party's mark: the ones answering now, and the stored ones of those who answered before. */
async function marksOf(ctx: AppContext, accepted: AcceptedContract): Promise<Map<number, PartyMark>> {
  const marks = new Map(
    (await ctx.repos.partyMarks.listOf(accepted.parties.map((party) => party.id))).map((row) => [
      row.partyId,
      markOfRow(row),
    ]),
  );
  for (const acceptance of accepted.byParty.values())
    if (acceptance.mark) marks.set(acceptance.partyId, acceptance.mark);
  return marks;
}

/**
 * What the party filled in; a signature mark holds the name it was signed with, an initials mark
 * the initials of that name exactly as the sealed PDF stamps them (shared/initials.ts).
 */
function withValue(annotation: AnnotationRow, byParty: ReadonlyMap<number, Acceptance>): AnnotationRow {
  const acceptance = byParty.get(annotation.partyId);
  if (!acceptance) return annotation;
  const mark =
    annotation.type === 'SIGNATURE'
      ? acceptance.signatureName
      : annotation.type === 'INITIALS'
        ? initialsOf(acceptance.signatureName)
        : undefined;
  const value = acceptance.values.get(annotation.id) ?? mark;
  return value === undefined ? annotation : { ...annotation, value: String(value) };
}

async function writeAcceptance(
  ctx: AppContext,
  contract: ContractRow,
  party: PartyRow,
  acceptance: Acceptance,
  now: number,
): Promise<void> {
  await ctx.repos.parties.update(party.id, {
    isAccept: true,
    signTime: now,
    signatureName: party.signatureName,
    answerIpAddress: party.answerIpAddress,
    answerUserAgent: party.answerUserAgent,
    answerAuthentication: party.answerAuthentication,
    openedAt: party.openedAt,
    invitedAt: party.invitedAt,
    updatedAt: now,
  });
  await logActivity(ctx, acceptanceEntry(party, acceptance, now));
  await recordEvent(ctx, 'contract.party_signed', {
    id: contractPath(contract.id),
    party: partyPath(party),
    partyName: party.name,
  });
}

async function finishSigned(
  ctx: AppContext,
  contract: ContractRow,
  parties: readonly PartyRow[],
  sealed: SealedContract,
  now: number,
): Promise<ContractRow> {
  const signedFileId = await ctx.repos.files.putFile(sealed.bytes, 'application/pdf', now);
  const signed = await ctx.repos.contracts.changeStatus(contract, 'signed', {
    signedAt: now,
    signedFileId,
    updatedAt: now,
  });
  const entry = await logActivity(ctx, signedEntry(contract.id, now));
  if (entry.hash !== sealed.chainHead.hash) throw new ChainMoved();
  await recordSeal(ctx, contract.id, sealed, now);
  await recordEvent(ctx, 'contract.signed', { id: contractPath(contract.id) });
  if (!signed.isSilent) for (const party of parties) await enqueuePartyMessage(ctx, 'signed', signed, party);
  return signed;
}
