import { useState } from 'react';
import type { SigningTranslate } from './i18n';

const MAX_FILE_BYTES = 5 * 1024 * 1024;
/** The picture sent: fitted into this box (the server checks and re-encodes it again). */
const MAX_WIDTH = 1200;
const MAX_HEIGHT = 600;

type Props = { t: SigningTranslate; onChange: (dataUrl: string | undefined) => void };

/**
 * A picture of a signature (PNG or JPEG only: no SVG, no other formats). The browser decodes it
 * and sends it fitted to 1200x600 as JPEG; the server decodes it again, takes out the paper's
 * white and stores a PNG.
 */
export function UploadPad({ t, onChange }: Props) {
  const [problem, setProblem] = useState<string>();
  const [preview, setPreview] = useState<string>();
  const choose = async (file: File | undefined) => {
    setProblem(undefined);
    setPreview(undefined);
    onChange(undefined);
    if (!file) return;
    if (file.type !== 'image/png' && file.type !== 'image/jpeg') return setProblem(t('uploadWrongType'));
    if (file.size > MAX_FILE_BYTES) return setProblem(t('uploadTooLarge'));
    try {
      const bitmap = await createImageBitmap(file);
      const scale = Math.min(1, MAX_WIDTH / bitmap.width, MAX_HEIGHT / bitmap.height);
      const canvas = document.createElement('canvas');
      canvas.width = Math.max(1, Math.round(bitmap.width * scale));
      canvas.height = Math.max(1, Math.round(bitmap.height * scale));
      const context = canvas.getContext('2d')!;
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, canvas.width, canvas.height);
      context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      bitmap.close();
      const dataUrl = canvas.toDataURL('image/jpeg', 0.92);
      setPreview(dataUrl);
      onChange(dataUrl);
    } catch {
      setProblem(t('uploadUnreadable'));
    }
  };
  return (
    <div className="upload-pad">
      <label htmlFor="signature-upload">{t('uploadLabel')}</label>
      <input
        id="signature-upload"
        type="file"
        accept="image/png,image/jpeg"
        onChange={(event) => void choose(event.target.files?.[0])}
      />
      {problem && (
        <p className="problem" role="alert">
          {problem}
        </p>
      )}
      {preview && <img className="upload-preview" src={preview} alt="" />}
    </div>
  );
}
