/** Limits of decisions.md section 3 and interface.md section 8, in one place. */
/** The interface's version (OpenAPI `info.version`); `Accept-Api-Version: 1` selects it. */
export const INTERFACE_VERSION = '1.0';
export const API_VERSION = 1;
export const MAX_STRING_LENGTH = 1_000;
export const MAX_CONTENT_LENGTH = 100_000;
export const MAX_UPLOAD_BYTES = 2 * 1024 * 1024;
export const MAX_JSON_BODY_BYTES = 1024 * 1024;
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_RATE_LIMIT = 30;
export const MAX_RATE_LIMIT = 1_000_000_000;
export const RATE_LIMIT_WINDOW_SECONDS = 60;
export const MIN_PASSWORD_LENGTH = 8;
export const DEFAULT_TIME_ZONE = 'Europe/Stockholm';
/** Per-contract caps (docs/decisions.md): enough for any real contract, small enough to keep a signing page usable. */
export const MAX_PARTIES_PER_CONTRACT = 50;
export const MAX_ANNOTATIONS_PER_CONTRACT = 500;
export const MAX_ATTACHMENTS_PER_CONTRACT = 20;
export const MAX_PDF_PAGES = 1_000;
