import { attachedFileOf } from '../db/repos/attached-file';
import { notFound } from '../core/errors';
import { defineRoute, type AnyRoute } from '../http/route';
import { fileResponseHeaders } from '../http/upload-headers';
import { findContract } from '../contracts/find-draft';

/** The file a party attached to an ATTACHMENT field: what the annotation's `value.download_uri` names. */
export const annotationFileRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/api/contracts/:contract_id/annotations/:annotation_id/file',
    operationId: 'getContractAnnotationFile',
    summary: 'The file a party attached to an ATTACHMENT field (value.download_uri)',
    description:
      "The bytes, with the content type and file name the party gave them; their SHA-256 is the value's sha256 and is listed on the audit page of the signed PDF. 404 while the party has not signed, and for any other type of field.",
    tag: 'Contract annotations',
    access: 'user',
    example: { output: 'passport.pdf' },
    responses: {
      200: {
        description: 'The file, with the content type it was attached with',
        contentType: 'application/octet-stream',
      },
    },
    handler: async ({ res, ctx, ids, actor }) => {
      await findContract(ctx, ids.contract_id, actor);
      const attached = await attachedFileOf(
        ctx.repos,
        await ctx.repos.annotations.findInContract(ids.contract_id, ids.annotation_id),
      );
      if (!attached) throw notFound('attached file');
      for (const [name, header] of Object.entries(fileResponseHeaders(attached.file.contentType, attached.name)))
        res.setHeader(name, header);
      res.status(200).end(attached.file.data);
    },
  }),
];
