import { rgb } from 'pdf-lib';

/** The audit trail's page margin, type sizes and colours, shared by its parts. */
export const MARGIN = 50;
export const BODY = 9.5;
export const LABEL = 8.5;
export const MONO = 8.5;
export const LEADING = 1.3;

export const INK = rgb(0.09, 0.18, 0.42);
export const DARK = rgb(0.1, 0.11, 0.14);
export const MUTED = rgb(0.42, 0.45, 0.5);
export const PANEL = rgb(0.955, 0.963, 0.978);
export const RULE = rgb(0.82, 0.85, 0.9);
export const BADGE = rgb(0.89, 0.92, 0.98);
export const WARN = rgb(0.6, 0.33, 0.02);
