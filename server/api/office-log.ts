import {
  ZOfficeLogCheckSchema,
  ZOfficeLogEntrySchema,
  type TAnchorProof,
  type TOfficeLogCheck,
} from '../../shared/api/anchors';
import { z } from 'zod';
import type { RouteContext } from '../http/route';
import { officeChainEntryOf } from '../activity/office-log';
import { verifyOfficeLog, type LogVerification } from '../evidence/anchors/verify-log';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';

const tag = 'Evidence';

/** The anchoring part of a log check, as the API shows it. */
export function presentAnchoring(
  ctx: RouteContext,
  verification: LogVerification,
): { proven_through_sequence: number; proofs: TAnchorProof[]; latest_anchor_time: string | null } {
  const latest = verification.anchorChain.anchors.at(-1);
  return {
    proven_through_sequence: verification.proofs.at(-1)?.throughSequence ?? 0,
    proofs: verification.proofs.map((proof) => ({
      anchor: proof.anchor,
      through_sequence: proof.throughSequence,
      authority_time: ctx.timestamp(proof.authorityTime),
      authority_time_ms: proof.authorityTime,
      authority: proof.authority,
    })),
    latest_anchor_time: latest ? ctx.timestamp(latest.authorityTime) : null,
  };
}

export const officeLogRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/api/office_log',
    operationId: 'listOfficeLog',
    summary:
      "The office's own log (users, API keys, webhook consumers, deleted drafts, settings, the seal certificate), oldest first, with its hash chain",
    tag,
    access: 'admin',
    responses: { 200: { description: 'Every entry', schema: z.array(ZOfficeLogEntrySchema) } },
    handler: async ({ res, ctx }) => {
      const rows = await ctx.repos.officeEvidence.listOfficeLog();
      sendJson(
        res,
        200,
        rows.map((row) => {
          const entry = officeChainEntryOf(row);
          return {
            sequence: entry.sequence,
            time: ctx.timestamp(row.createdAt),
            recorded_ms: Date.parse(entry.recordedTime),
            event: entry.event,
            subject: entry.subject,
            actor: entry.actor || null,
            user_agent: entry.userAgent,
            ip_address: entry.ipAddress,
            details: entry.details,
            previous_hash: entry.previousHash,
            hash: entry.hash,
          };
        }),
      );
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/office_log/verification',
    operationId: 'verifyOfficeLog',
    summary: "Recompute the office log's chain and the office anchors from their timestamp tokens",
    description:
      "The office anchors fold the heads of every contract's log and of the office log and are timestamped by the authority after each seal and at least daily; this re-derives each anchor from its token (never trusting a stored hash or time) and checks the office log against them. It also checks the office against its log: every contract log an anchor holds must still be there unless the office log records its deletion, and every user's e-mail and webhook consumer's public key must hash to what the office log recorded last (`email_sha256`, `public_key_sha256`); each difference is a problem (sequence 0, or the office-log entry it contradicts).",
    tag,
    access: 'admin',
    responses: { 200: { description: 'The check', schema: ZOfficeLogCheckSchema } },
    handler: async ({ res, ctx, act }) => {
      const verification = await act(verifyOfficeLog);
      const body: TOfficeLogCheck = {
        is_intact: verification.isIntact,
        entry_count: verification.entryCount,
        head_sequence: verification.head?.sequence ?? null,
        head_hash: verification.head?.hash ?? null,
        anchor_count: verification.anchorChain.anchors.length,
        ...presentAnchoring(ctx, verification),
        problems: verification.problems,
      };
      sendJson(res, 200, body);
    },
  }),
];
