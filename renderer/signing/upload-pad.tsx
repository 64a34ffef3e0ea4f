import { useState } from 'react';
import type { SigningTranslate } from './i18n';
import { shrinkPicture } from './shrink-picture';

type Props = { t: SigningTranslate; onChange: (dataUrl: string | undefined) => void };

/**
 * A picture of a signature (PNG or JPEG only: no SVG, no other formats). The browser decodes it
 * and sends it fitted to 1200x600 as JPEG (shrinkPicture: any size of photo is taken, the limit
 * is on what is sent); the server decodes it again, takes out the paper and stores a PNG.
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
    try {
      const dataUrl = await shrinkPicture(file);
      if (!dataUrl) return setProblem(t('uploadTooLarge'));
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
