import type { TAnnotation } from '../../shared/api/annotations';
import type { TAttachment } from '../../shared/api/attachments';
import type { TActivityEntry, TContract } from '../../shared/api/contracts';
import type { TParty } from '../../shared/api/parties';
import type { AppContext } from '../context';
import type { ActivityRow } from '../db/repos/activity-log';
import type { AnnotationRow } from '../db/repos/annotations';
import type { AttachmentRow } from '../db/repos/attachments';
import type { ContractRow } from '../db/repos/contracts';
import type { PartyRow } from '../db/repos/parties';
import type { UserRow } from '../db/repos/users';
import { annotationPath } from '../services/contracts/save-annotation';
import { attachmentPath } from '../services/contracts/save-attachment';
import { partyPath } from '../services/contracts/save-party';
import { signingLink } from '../services/signing/link-tokens';
import { storedChainEntryOf } from '../evidence/contract-chain';

const userPath = (id: number | null) => (id === null ? null : `/api/users/${id}`);

export function presentContract(ctx: AppContext, row: ContractRow): TContract {
  const seal = row.status === 'signed' ? ctx.repos.seals.find(row.id) : undefined;
  return {
    self: `/api/contracts/${row.id}`,
    name: row.name,
    language: row.language as TContract['language'],
    content: row.content,
    pdf_preview_uri: `${ctx.baseUrl()}/api/contracts/${row.id}/pdf`,
    email_invite_content: row.emailInviteContent,
    email_from_name: row.emailFromName,
    email_reply_to: row.emailReplyTo,
    party_order_defined: row.partyOrderDefined,
    show_identity_number: row.showIdentityNumber,
    require_auth: row.requireAuth as TContract['require_auth'],
    sent_time: ctx.timestampOrNull(row.sentAt),
    expire_time: ctx.timestampOrNull(row.expireAt),
    created_by: `/api/users/${row.createdBy}`,
    created_time: ctx.timestamp(row.createdAt),
    template: row.templateId === null ? null : `/api/contract_templates/${row.templateId}`,
    is_answered: row.status === 'signed' || row.status === 'rejected',
    is_signed: row.status === 'signed',
    is_rejected: row.status === 'rejected',
    timestamp_status: (seal?.timestampStatus as TContract['timestamp_status'] | undefined) ?? null,
    timestamp_time: ctx.timestampOrNull(seal?.timestampTime),
    reminder_interval_days: row.reminderIntervalDays,
    reminder_max_count: row.reminderMaxCount,
    expiry_warning_days: row.expiryWarningDays,
    next_reminder_time: ctx.timestampOrNull(row.nextReminderAt),
    expiry_warning_time: ctx.timestampOrNull(row.expiryWarningAt),
    expiry_warned_time: ctx.timestampOrNull(row.expiryWarnedAt),
    withdrawn_time: ctx.timestampOrNull(row.withdrawnAt),
    withdrawn_by: userPath(row.withdrawnBy),
    withdraw_reason: row.withdrawReason,
  };
}

export function presentParty(ctx: AppContext, row: PartyRow): TParty {
  return {
    self: partyPath(row),
    name: row.name,
    email: row.email,
    mobile_phone: row.mobilePhone,
    identity_number: row.identityNumber,
    delivery_method: row.deliveryMethod as TParty['delivery_method'],
    sign_type: row.signType as TParty['sign_type'],
    sign_order: row.signOrder,
    user: userPath(row.userId),
    is_accept: row.isAccept,
    sign_time: ctx.timestampOrNull(row.signTime),
    reject_cause: row.rejectCause,
    email_status: {
      sent: row.emailSent,
      opened: row.emailOpened,
      clicked: row.emailClicked,
      bounced: row.emailBounced,
      hardbounced: row.emailHardbounced,
      softbounced: row.emailSoftbounced,
      blocked: row.emailBlocked,
      unsub: row.emailUnsub,
      spam: row.emailSpam,
    },
    created_by: `/api/users/${row.createdBy}`,
    created_time: ctx.timestamp(row.createdAt),
    contract_url: signingLink(ctx, row),
    reminders_sent: row.remindersSent,
  };
}

export function presentAnnotation(ctx: AppContext, row: AnnotationRow): TAnnotation {
  return {
    self: annotationPath(row),
    party_id: partyPath({ contractId: row.contractId, id: row.partyId }),
    pdf_page: row.pdfPage,
    pos_x: row.posX,
    pos_y: row.posY,
    width: row.width,
    height: row.height,
    type: row.type as TAnnotation['type'],
    content: row.content,
    input_required: row.inputRequired,
    render_when_signed: row.renderWhenSigned,
    value: row.value === null ? null : row.type === 'CHECKBOX' ? row.value === 'true' : row.value,
    created_by: `/api/users/${row.createdBy}`,
    created_time: ctx.timestamp(row.createdAt),
  };
}

export function presentAttachment(ctx: AppContext, row: AttachmentRow): TAttachment {
  return {
    self: attachmentPath(row),
    name: row.name,
    preview_uri: `${ctx.baseUrl()}${attachmentPath(row)}/preview`,
    created_by: `/api/users/${row.createdBy}`,
    created_time: ctx.timestamp(row.createdAt),
  };
}

/** A user's name as people read it: their full name, else their username. */
export const userDisplayName = (user: Pick<UserRow, 'firstname' | 'lastname' | 'username'>) =>
  [user.firstname, user.lastname].filter(Boolean).join(' ').trim() || user.username;

/**
 * Presents a contract's log entries with their actors' names (each user and party looked up
 * once). The actor is the one the entry's hash covers (log-activity.ts actorPath).
 */
export function activityPresenter(ctx: AppContext, contractId: number): (row: ActivityRow) => TActivityEntry {
  const parties = new Map(ctx.repos.parties.listInContract(contractId).map((party) => [party.id, party]));
  const userNames = new Map<number, string>();
  const userName = (id: number) => {
    let name = userNames.get(id);
    if (name === undefined) {
      const user = ctx.repos.users.findById(id);
      name = user ? userDisplayName(user) : '';
      userNames.set(id, name);
    }
    return name;
  };
  const actorOf = (row: ActivityRow): Pick<TActivityEntry, 'actor_type' | 'actor' | 'actor_name'> => {
    if (row.userId !== null) return { actor_type: 'user', actor: `/api/users/${row.userId}`, actor_name: userName(row.userId) };
    if (row.partyId !== null) {
      return { actor_type: 'party', actor: partyPath({ contractId, id: row.partyId }), actor_name: parties.get(row.partyId)?.name ?? '' };
    }
    return { actor_type: 'appliance', actor: null, actor_name: 'SignDesk' };
  };
  return (row) => {
    const entry = storedChainEntryOf(row);
    return {
      time: ctx.timestamp(row.createdAt),
      event: row.event,
      user_agent: row.userAgent,
      ip_address: row.ipAddress,
      sequence: entry.sequence,
      recorded_time: entry.recordedTime,
      ...actorOf(row),
      subject: row.subject,
      details: entry.details,
      previous_hash: entry.previousHash,
      hash: entry.hash,
    };
  };
}
