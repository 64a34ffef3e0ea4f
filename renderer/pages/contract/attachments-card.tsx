import { useState } from 'react';
import type { TAttachment } from '../../../shared/api/attachments';
import { Button, Card, ProblemAlert } from '../../components/ui';
import { downloadFile, sendJson, uploadFile } from '../../lib/api';
import { useUploadLimit } from '../../lib/upload-limit';
import { useT } from '../../lib/i18n';
import { useAction } from '../../lib/use-action';

const pathOf = (url: string) => new URL(url, window.location.origin).pathname;

/** The contract's attachments: downloaded from here; added and removed while a draft. */
export function AttachmentsCard({
  contractPath,
  attachments,
  isDraft,
  onChanged,
}: {
  contractPath: string;
  attachments: TAttachment[] | undefined;
  isDraft: boolean;
  onChanged: () => Promise<void>;
}) {
  const t = useT();
  const action = useAction();
  const [inputKey, setInputKey] = useState(0);
  const limit = useUploadLimit();
  if (!isDraft && (!attachments || attachments.length === 0)) return null;
  const upload = (file: File | undefined) => {
    if (!file) return;
    void action.run('upload', async () => {
      // Said here rather than after sending 2 MiB to be told so.
      limit.check(file, 'attachment');
      try {
        await uploadFile(`${contractPath}/attachments`, file);
        await onChanged();
      } finally {
        setInputKey((key) => key + 1);
      }
    });
  };
  const remove = (attachment: TAttachment) =>
    void action.run(attachment.self, async () => {
      await sendJson('DELETE', attachment.self);
      await onChanged();
    });
  return (
    <Card title={t('contract.attachments')} description={isDraft ? t('attachments.description') : undefined}>
      <ProblemAlert error={action.error} onDismiss={action.dismiss} />
      {attachments && attachments.length > 0 ? (
        <ul className="plain-list attachment-list">
          {attachments.map((attachment) => (
            <li key={attachment.self}>
              <button
                type="button"
                className="link-button"
                onClick={() =>
                  void downloadFile(pathOf(attachment.preview_uri ?? attachment.self), '*/*', attachment.name)
                }
              >
                {attachment.name}
              </button>
              {isDraft ? (
                <Button
                  size="small"
                  variant="ghost"
                  isBusy={action.busy === attachment.self}
                  onClick={() => remove(attachment)}
                  aria-label={t('attachments.removeNamed', { name: attachment.name })}
                >
                  {t('attachments.remove')}
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted small">{t('attachments.none')}</p>
      )}
      {isDraft ? (
        <div className="attachment-upload">
          <label className="button button-secondary button-small file-button">
            <input
              key={inputKey}
              type="file"
              className="visually-hidden"
              onChange={(event) => upload(event.target.files?.[0])}
              disabled={action.busy === 'upload'}
            />
            {action.busy === 'upload' ? t('attachments.uploading') : t('attachments.add')}
          </label>
          <span className="small muted">{t('attachments.hint')}</span>
        </div>
      ) : null}
    </Card>
  );
}
