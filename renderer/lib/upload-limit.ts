import { MAX_UPLOAD_BYTES } from '../../shared/constants';
import { formatLimit, formatSize } from '../../shared/sizes';
import { ApiError } from './api';
import { useI18n } from './i18n';

/** What an upload is, as its refusal names it. */
export type UploadKind = 'pdf' | 'attachment' | 'csv';

const MESSAGE = {
  pdf: 'upload.tooLargePdf',
  attachment: 'upload.tooLargeAttachment',
  csv: 'upload.tooLargeCsv',
} as const;

/**
 * A file over the interface's limit (2 MiB for PDFs, attachments and CSV files), refused here
 * before it is sent, in the words the API uses: "The PDF is 2.3 MiB; the limit is 2 MiB."
 */
export function useUploadLimit() {
  const { t, language } = useI18n();
  /** The refusal's message, or undefined when the file fits. */
  const messageFor = (file: File | undefined, kind: UploadKind, limit = MAX_UPLOAD_BYTES): string | undefined =>
    file && file.size > limit
      ? t(MESSAGE[kind], { size: formatSize(file.size, limit, language), limit: formatLimit(limit, language) })
      : undefined;
  /** Throws the refusal as a 413 (shown like the server's), so that nothing is sent. */
  const check = (file: File, kind: UploadKind, limit = MAX_UPLOAD_BYTES): void => {
    const message = messageFor(file, kind, limit);
    if (message) throw new ApiError(413, t('upload.tooLargeTitle'), message);
  };
  return { messageFor, check };
}
