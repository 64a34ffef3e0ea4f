import { ZActivityChainCheckSchema, type TActivityChainCheck } from '../../shared/api/contracts';
import { verifyContractLog } from '../evidence/anchors/verify-log';
import { presentAnchoring } from './office-log';
import { makeEvidencePackage } from '../evidence/evidence-package';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import { findContract } from '../contracts/find-draft';

const tag = 'Contracts';

export const contractEvidenceRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/api/contracts/:contract_id/activity_log/verification',
    operationId: 'verifyContractActivity',
    summary: "Recompute the activity log's hash chain and say whether any past entry was changed",
    description:
      'Every entry must hash to its stored hash (see ApiActivityLogEntry.hash), name the hash of the entry before it, and the sequence must run 1, 2, … without a gap; for a signed contract the entry printed in the sealed audit trail must still hold the hash printed there; and every head of this log that an office anchor holds must still be there, the anchors re-derived from the timestamp authority’s tokens (whose time and imprint come from outside this database). `proofs` says up to which entry, and by which moment, the log is proven.',
    tag,
    access: 'user',
    responses: { 200: { description: 'The check', schema: ZActivityChainCheckSchema } },
    handler: async ({ res, ctx, ids, actor, act }) => {
      const contract = await findContract(ctx, ids.contract_id, actor);
      const check = await act(verifyContractLog, contract.id);
      const seal = await ctx.repos.seals.find(contract.id);
      const body: TActivityChainCheck = {
        is_intact: check.isIntact,
        entry_count: check.entryCount,
        head_sequence: check.head?.sequence ?? null,
        head_hash: check.head?.hash ?? null,
        sealed_head_sequence: seal?.chainHeadSequence ?? null,
        sealed_head_hash: seal?.chainHeadHash ?? null,
        ...presentAnchoring(ctx, check),
        problems: check.problems,
      };
      sendJson(res, 200, body);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/contracts/:contract_id/evidence',
    operationId: 'getContractEvidence',
    summary: 'The evidence package of a signed contract (zip); 409 until every party has signed',
    description:
      "The signed PDF, the activity log as JSON with its hash chain (and each entry as hashed), the seal certificate and chain, the seal CMS, the timestamp tokens and the authority's certificate, SHA256SUMS, and a README.txt saying how to check everything offline with pdfsig, openssl and sha256sum.",
    tag,
    access: 'user',
    responses: { 200: { description: 'The zip', contentType: 'application/zip' } },
    problemStatuses: [409],
    handler: async ({ res, ctx, ids, actor, act }) => {
      const contract = await findContract(ctx, ids.contract_id, actor);
      const zip = await act(makeEvidencePackage, contract);
      res.status(200);
      res.setHeader('Content-Type', 'application/zip');
      res.setHeader('Content-Disposition', `attachment; filename="contract-${contract.id}-evidence.zip"`);
      res.setHeader('Content-Length', String(zip.length));
      res.end(Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength));
    },
  }),
];
