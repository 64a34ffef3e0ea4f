/**
 * Each party's (or role's) colour in the field editor: Okabe and Ito's palette, told apart
 * with every common colour vision deficiency; each field also carries its owner's name as
 * text, so colour is never the only cue.
 */
const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#5B4BA0', '#7A6A00'] as const;

export const colourOf = (index: number): string =>
  PALETTE[((index % PALETTE.length) + PALETTE.length) % PALETTE.length]!;
