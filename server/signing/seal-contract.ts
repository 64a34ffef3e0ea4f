import { mapInOrder } from '../core/in-order';
import { partyPath } from '../../shared/api/paths';
import type { AppContext } from '../context/app-context';
import type { ActivityRow, ChainedActivity } from '../db/repos/activity-log';
import type { AnnotationRow } from '../db/repos/annotations';
import type { ContractRow } from '../db/repos/contracts';
import type { PartyRow } from '../db/repos/parties';
import type { SignedPdfEvent } from '../pdf/build-signed-pdf';
import { timestampSeal, TIMESTAMP_ROOM } from '../evidence/timestamps/timestamp-seal';
import type { SealedContract } from '../evidence/record-seal';
import { readTsaUrl, withoutCredentials } from '../evidence/timestamps/tsa-settings';
import { chainActivity, PARTY_NAME_DETAIL, type ActivityInput } from '../activity/log-activity';
import { buildContractSeal } from './build-seal-input';
import { parseFileValue } from '../../shared/field-answers';
import { renewSealIfDue } from '../settings/renew-seal';
import type { PartyMark } from './read-mark';

/**
 * Seals a contract whose parties have all accepted: the audit trail lists the activity log up to
 * the entries the signing transaction is about to write (`planned`, all at `now`) and prints the
 * head of the hash chain they make; then, with a timestamp authority set, the seal gets its
 * signature timestamp (or is marked pending when the authority does not answer).
 */
export async function sealContract(
  ctx: AppContext,
  contract: ContractRow,
  parties: readonly PartyRow[],
  annotations: readonly AnnotationRow[],
  marks: ReadonlyMap<number, PartyMark>,
  now: number,
  planned: readonly ActivityInput[],
): Promise<SealedContract> {
  await renewSealIfDue(ctx);
  const tsaUrl = (await readTsaUrl(ctx)).url;
  let head = await ctx.repos.activity.head(contract.id);
  const written = await ctx.repos.activity.listChain(contract.id);
  const coming: ChainedActivity[] = [];
  for (const input of planned) {
    const row = chainActivity(input, now, head);
    coming.push(row);
    head = { sequence: row.sequence, hash: row.hash };
  }
  const chainHead = head!;
  const attachments = await mapInOrder(await ctx.repos.attachments.listInContract(contract.id), async (attachment) => {
    const file = await ctx.repos.files.getFile(attachment.fileId);
    return { name: attachment.name, size: attachment.size, sha256: file?.sha256 ?? '' };
  });
  const partyFiles = partyFilesOf(parties, annotations);
  const eventOf = actorNames(ctx, parties);
  const events = await mapInOrder([...written, ...coming], (row) => eventOf(row as ActivityRow));
  // The audit page names the authority without its credentials: the PDF goes to every party for good.
  const evidence = {
    events,
    chainHead,
    attachments,
    partyFiles,
    timestampAuthority: tsaUrl ? withoutCredentials(tsaUrl) : null,
  };
  const sealed = await buildContractSeal(
    ctx,
    contract,
    parties,
    annotations,
    marks,
    now,
    evidence,
    tsaUrl ? TIMESTAMP_ROOM : 0,
  );
  const stamped = tsaUrl
    ? await timestampSeal(ctx, sealed, tsaUrl)
    : { bytes: sealed, timestamp: { status: 'none' } as const };
  const certificateSha256 = (await ctx.seal.identity()).certificate.fingerprint256.replaceAll(':', '').toLowerCase();
  return { bytes: stamped.bytes, chainHead, timestamp: stamped.timestamp, certificateSha256 };
}

type EventRow = Pick<
  ActivityRow,
  | 'contractId'
  | 'sequence'
  | 'createdAt'
  | 'event'
  | 'userId'
  | 'partyId'
  | 'subject'
  | 'ipAddress'
  | 'userAgent'
  | 'details'
  | 'hash'
>;

/**
 * Turns entries into the audit trail's events: who acted (the user, the party acting from its
 * link, or the appliance: the actor the chain hashes) and, when someone else acted, whom it was about.
 */
function actorNames(ctx: AppContext, parties: readonly PartyRow[]): (row: EventRow) => Promise<SignedPdfEvent> {
  const partyNames = new Map(parties.map((party) => [partyPath(party), party.name]));
  const partyNamesById = new Map(parties.map((party) => [party.id, party.name]));
  const userNames = new Map<number, string>();
  const userName = async (id: number) => {
    if (!userNames.has(id)) {
      const user = await ctx.repos.users.findById(id);
      const fullName = user ? `${user.firstname} ${user.lastname}`.trim() : '';
      userNames.set(id, user ? (fullName ? `${fullName} (${user.username})` : user.username) : `/api/users/${id}`);
    }
    return userNames.get(id)!;
  };
  return async (row) => {
    const { [PARTY_NAME_DETAIL]: namedThen, ...details } = JSON.parse(row.details) as Record<string, string>;
    // The party as the entry named it when it was written (a delegation or correction makes the
    // row someone else); entries from before that detail existed fall back to the row.
    const party = namedThen ?? partyNames.get(row.subject);
    const isPartyAction = row.userId === null && row.partyId !== null;
    const isOwnAct = isPartyAction && partyPath({ contractId: row.contractId, id: row.partyId! }) === row.subject;
    return {
      sequence: row.sequence ?? 0,
      time: row.createdAt,
      event: row.event,
      actor:
        row.userId !== null
          ? await userName(row.userId)
          : row.partyId !== null
            ? ((isOwnAct ? namedThen : undefined) ?? partyNamesById.get(row.partyId) ?? '')
            : '',
      ...(party && !isPartyAction ? { about: party } : {}),
      ipAddress: row.ipAddress,
      userAgent: row.userAgent,
      details,
      hash: row.hash ?? '',
    };
  };
}

/** The files parties attached to their ATTACHMENT fields, as the audit page lists them: "party · field: file". */
function partyFilesOf(parties: readonly PartyRow[], annotations: readonly AnnotationRow[]) {
  const names = new Map(parties.map((party) => [party.id, party.name]));
  return annotations.flatMap((annotation) => {
    const file = annotation.type === 'ATTACHMENT' ? parseFileValue(annotation.value) : undefined;
    if (!file) return [];
    const field = annotation.label || `#${annotation.id}`;
    return [
      { name: `${names.get(annotation.partyId) ?? ''} · ${field}: ${file.name}`, size: file.size, sha256: file.sha256 },
    ];
  });
}
