import { useState, type ReactNode } from 'react';
import { MAX_FIELD_FILE_BYTES, type TFieldAnswerFile, type TSigningField } from '../../shared/api/signing';
import { formatFileSize } from '../../shared/field-answers';
import type { FieldValue } from './fields';
import type { SigningTranslate } from './i18n';

type Props = {
  field: TSigningField;
  id: string;
  label: string;
  describedBy: string | undefined;
  hint: ReactNode;
  value: FieldValue;
  t: SigningTranslate;
  onChange: (value: FieldValue) => void;
};

/** How many bytes base64 text holds. */
const decodedSize = (data: string) => (data.length / 4) * 3 - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);

/** The bytes of a file as base64 (without the data: URL's head). */
function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(file);
  });
}

/**
 * An ATTACHMENT field: the party chooses a file (at most 2 MiB, checked before it is read),
 * which goes with its answer; the choice is named with its size and can be removed.
 */
export function FileAnswer({ field, id, label, describedBy, hint, value, t, onChange }: Props) {
  const [problem, setProblem] = useState<string>();
  const chosen = typeof value === 'object' ? (value as TFieldAnswerFile) : undefined;
  const problemId = `${id}-problem`;
  const choose = async (file: File | undefined) => {
    setProblem(undefined);
    if (!file) return;
    if (file.size > MAX_FIELD_FILE_BYTES) return setProblem(t('fileTooLarge', { size: formatFileSize(file.size) }));
    if (file.size === 0) return setProblem(t('fileEmpty'));
    try {
      const data = await readBase64(file);
      onChange({ file_name: file.name, content_type: file.type || 'application/octet-stream', data });
    } catch {
      setProblem(t('fileUnreadable'));
    }
  };
  return (
    <div className="editor">
      <label className="editor-label" htmlFor={id}>
        {label}
      </label>
      {hint}
      <input
        id={id}
        className="file-input"
        type="file"
        aria-required={field.isRequired}
        aria-invalid={problem ? true : undefined}
        aria-describedby={[describedBy, problem ? problemId : undefined].filter(Boolean).join(' ') || undefined}
        onChange={(event) => void choose(event.target.files?.[0])}
      />
      <p className="muted">{t('fileLimit')}</p>
      {chosen && (
        <p className="file-chosen">
          <span>
            {t('fileChosen', {
              name: chosen.file_name,
              size: formatFileSize(decodedSize(chosen.data)),
            })}
          </span>
          <button type="button" className="secondary" onClick={() => onChange('')}>
            {t('fileRemove')}
          </button>
        </p>
      )}
      {problem && (
        <p id={problemId} className="problem" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
