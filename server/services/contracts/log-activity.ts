import type { Request } from 'express';
import { MAX_STRING_LENGTH } from '../../../shared/constants';
import type { AppContext } from '../../context';

/** Who made a change, as the activity log shows it; the appliance's own entries carry empty strings. */
export type RequestOrigin = { userAgent: string; ipAddress: string };

export const APPLIANCE_ORIGIN: RequestOrigin = { userAgent: '', ipAddress: '' };

export function requestOrigin(req: Request): RequestOrigin {
  const agent = req.headers['user-agent'];
  const address = req.ip ?? req.socket.remoteAddress ?? '';
  return {
    userAgent: (typeof agent === 'string' ? agent : '').slice(0, MAX_STRING_LENGTH),
    // An IPv4 client of a dual-stack socket shows as ::ffff:a.b.c.d; people know it as a.b.c.d.
    ipAddress: address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, ''),
  };
}

export type ActivityInput = RequestOrigin & {
  contractId: number;
  /** e.g. contract.created, party.added, annotation.removed, contract.sent */
  event: string;
  /** The resource the entry is about (a party, annotation or attachment path). */
  subject?: string;
  /** The acting user, when a user (not a party or the appliance) made the change. */
  userId?: number | null;
  /** The acting party, when a party did it from its link. */
  partyId?: number | null;
  /** How a message went out (email, sms, email+sms, none), a reason. */
  detail?: string;
};

/** Writes one activity-log entry; call it inside the transaction of the change it records. */
export function logActivity(ctx: AppContext, entry: ActivityInput): void {
  ctx.repos.activity.insert({
    contractId: entry.contractId,
    event: entry.event,
    subject: entry.subject ?? '',
    userId: entry.userId ?? null,
    partyId: entry.partyId ?? null,
    detail: entry.detail ?? '',
    userAgent: entry.userAgent,
    ipAddress: entry.ipAddress,
    createdAt: ctx.now(),
  });
}
