import { ZContractNotifySchema, ZContractSchema } from '../../shared/api/contracts';
import { AppError } from '../core/errors';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import { fileResponseHeaders } from '../http/upload-headers';
import { findContract } from '../contracts/find-draft';
import { requestOrigin } from '../activity/log-activity';
import { notifyContract } from '../signing/notify-contract';
import { presentContract } from './contract-presenters';

const tag = 'Contracts';

export const contractSigningRoutes: AnyRoute[] = [
  defineRoute({
    method: 'post',
    path: '/api/contracts/:contract_id/notify',
    operationId: 'notifyContract',
    summary: 'Remind the parties whose answer is awaited (by the signing order)',
    description: 'Refused with 409 for drafts and for signed, rejected or expired contracts.',
    tag,
    access: 'user',
    body: ZContractNotifySchema,
    isBodyOptional: true,
    example: { body: {} },
    responses: { 200: { description: 'The contract', schema: ZContractSchema } },
    handler: async ({ req, res, ctx, ids, actor, act }) => {
      sendJson(
        res,
        200,
        await presentContract(ctx, await act(notifyContract, ids.contract_id, actor, requestOrigin(req))),
      );
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/contracts/:contract_id/signed_pdf',
    operationId: 'getSignedPdf',
    summary: 'The signed, sealed PDF; 409 until every party has signed',
    tag,
    access: 'user',
    example: { output: 'signed.pdf' },
    responses: { 200: { description: 'The signed PDF', contentType: 'application/pdf' } },
    problemStatuses: [409],
    handler: async ({ res, ctx, ids, actor }) => {
      const contract = await findContract(ctx, ids.contract_id, actor);
      const file =
        contract.status === 'signed' && contract.signedFileId !== null
          ? await ctx.repos.files.getFile(contract.signedFileId)
          : undefined;
      if (!file) {
        throw new AppError(
          'contract-state',
          `Contract /api/contracts/${contract.id} is ${contract.status}; the signed PDF exists once every party has signed.`,
        );
      }
      for (const [name, value] of Object.entries(
        fileResponseHeaders('application/pdf', `${contract.name || `contract-${contract.id}`} (signed).pdf`),
      )) {
        res.setHeader(name, value);
      }
      res.status(200).end(file.data);
    },
  }),
];
