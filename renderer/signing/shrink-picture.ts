import { MAX_MARK_BYTES } from '../../shared/signing-page';

/** The picture sent: fitted into this box (the server checks and re-encodes it again). */
const MAX_WIDTH = 1200;
const MAX_HEIGHT = 600;
/** JPEG qualities tried in turn until the picture fits the server's limit. */
const QUALITIES = [0.92, 0.8, 0.65];

/** Bytes a data: URL's base64 carries. */
const bytesOf = (dataUrl: string) => Math.floor(((dataUrl.length - dataUrl.indexOf(',') - 1) * 3) / 4);

/**
 * A chosen photo or scan made ready to send: decoded by the browser, fitted to 1200x600 on
 * white, encoded as JPEG. The size limit applies to what is sent, after this shrinking, so a
 * 50-megapixel phone photo of 12 MB is fine. `undefined`: still over the limit at the lowest
 * quality (a picture of noise); throws when the browser cannot decode it.
 */
export async function shrinkPicture(file: Blob): Promise<string | undefined> {
  const bitmap = await createImageBitmap(file);
  try {
    const scale = Math.min(1, MAX_WIDTH / bitmap.width, MAX_HEIGHT / bitmap.height);
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.imageSmoothingQuality = 'high';
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    for (const quality of QUALITIES) {
      const dataUrl = canvas.toDataURL('image/jpeg', quality);
      if (bytesOf(dataUrl) <= MAX_MARK_BYTES) return dataUrl;
    }
    return undefined;
  } finally {
    bitmap.close();
  }
}
