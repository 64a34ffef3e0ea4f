import { rgb } from 'pdf-lib';

/** The colours of stamped fields: a signer's ink, typed text, frames and captions. */
export const INK = rgb(0.06, 0.15, 0.42);
export const TEXT = rgb(0.1, 0.1, 0.12);
export const FRAME = rgb(0.62, 0.66, 0.74);
export const CAPTION = rgb(0.36, 0.39, 0.45);
/** Noto Sans's cap height (em): text is centred on its capitals, which looks centred to the eye. */
export const CAP_HEIGHT = 0.714;
