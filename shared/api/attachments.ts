import { z } from 'zod';
import { ZTimestampSchema } from './common';

export const ZAttachmentSchema = z
  .object({
    self: z.string().meta({ description: "The attachment's path", example: '/api/contracts/1/attachments/1' }),
    name: z
      .string()
      .meta({ description: 'The filename of the Content-Disposition it was uploaded with', example: 'terms.pdf' }),
    preview_uri: z.string().meta({
      description: 'Authenticated API URL that returns the file',
      example: 'http://127.0.0.1:8750/api/contracts/1/attachments/1/preview',
    }),
    created_by: z.string().meta({ example: '/api/users/1' }),
    created_time: ZTimestampSchema,
  })
  .meta({ id: 'ApiContractAttachment' });

/** The headers that describe an uploaded file (the body is the file itself). */
export const ZAttachmentUploadHeadersSchema = z.object({
  'Content-Type': z.string().meta({
    description:
      "The file's media type, kept and served back as is (not application/json or a form type: send such a file as text/plain or application/octet-stream)",
    example: 'application/pdf',
  }),
  'Content-Disposition': z.string().meta({
    description:
      'Carries the file name (RFC 6266: filename, or filename* for non-ASCII names), at most 255 characters, without folders',
    example: 'attachment; filename="terms.pdf"',
  }),
});

export type TAttachment = z.infer<typeof ZAttachmentSchema>;
