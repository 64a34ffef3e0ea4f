import { annotationPath, attachmentPath, partyPath } from '../../shared/api/paths';
import { parseFileValue, parseOptions } from '../../shared/field-answers';
import type { TAnnotation } from '../../shared/api/annotations';
import type { TAttachment } from '../../shared/api/attachments';
import type { TContract } from '../../shared/api/contracts';
import type { TParty } from '../../shared/api/parties';
import type { RouteContext } from '../http/route';
import type { AnnotationRow } from '../db/repos/annotations';
import type { AttachmentRow } from '../db/repos/attachments';
import type { ContractRow } from '../db/repos/contracts';
import type { PartyRow } from '../db/repos/parties';
import { signingLink } from '../secrets/link-tokens';

const userPath = (id: number | null) => (id === null ? null : `/api/users/${id}`);

export async function presentContract(ctx: RouteContext, row: ContractRow): Promise<TContract> {
  const seal = row.status === 'signed' ? await ctx.repos.seals.find(row.id) : undefined;
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
    test_mode: row.isTest,
    allow_delegation: row.allowDelegation,
    metadata: await ctx.repos.contractMetadata.listOf(row.id),
    updated_time: ctx.timestamp(row.updatedAt),
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
    ltv_status: (seal?.ltvStatus as TContract['ltv_status'] | undefined) ?? null,
    // One column: the cause while pending, what the data lacks once done.
    ltv_error: seal?.ltvStatus === 'pending' ? (seal.ltvError ?? null) : null,
    ltv_note: seal?.ltvStatus === 'done' ? (seal.ltvError ?? null) : null,
    archive_time: ctx.timestampOrNull(seal?.archiveTime),
    archive_expire_time: ctx.timestampOrNull(seal?.archiveExpiresAt),
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

export function presentParty(ctx: RouteContext, row: PartyRow): TParty {
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
    role: row.roleName,
    role_number: row.role,
  };
}

export function presentAnnotation(ctx: RouteContext, row: AnnotationRow): TAnnotation {
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
    ...fieldTextsOf(row),
    input_required: row.inputRequired,
    render_when_signed: row.renderWhenSigned,
    value: presentValue(ctx, row),
    created_by: `/api/users/${row.createdBy}`,
    created_time: ctx.timestamp(row.createdAt),
  };
}

/** A field's label, hint and options, as a contract's annotation and a template's field show them. */
export function fieldTextsOf(row: { label: string; hint: string; options: string | null }) {
  return { label: row.label, hint: row.hint, options: parseOptions(row.options) };
}

/** The value as the API gives it: by type a text, true/false, a number, or the attached file. */
function presentValue(ctx: RouteContext, row: AnnotationRow): TAnnotation['value'] {
  if (row.value === null) return null;
  switch (row.type) {
    case 'CHECKBOX':
      return row.value === 'true';
    case 'NUMBER':
      return row.value === '' ? null : Number(row.value);
    case 'ATTACHMENT': {
      const file = parseFileValue(row.value);
      if (!file) return null;
      return {
        file_name: file.name,
        content_type: file.content_type,
        size: file.size,
        sha256: file.sha256,
        download_uri: `${ctx.baseUrl()}${annotationPath(row)}/file`,
      };
    }
    default:
      return row.value;
  }
}

export function presentAttachment(ctx: RouteContext, row: AttachmentRow): TAttachment {
  return {
    self: attachmentPath(row),
    name: row.name,
    preview_uri: `${ctx.baseUrl()}${attachmentPath(row)}/preview`,
    created_by: `/api/users/${row.createdBy}`,
    created_time: ctx.timestamp(row.createdAt),
  };
}
