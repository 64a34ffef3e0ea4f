/** Allowed values of every enumerated field of the API. */
export const ANNOTATION_TYPES = [
  'SIGNATURE',
  'INITIALS',
  'NAME',
  'DATE',
  'TEXT',
  'CHECKBOX',
  'NUMBER',
  'EMAIL',
  'DROPDOWN',
  'RADIO',
  'ATTACHMENT',
] as const;
/** The field types whose party picks one of the field's `options`. */
export const CHOICE_TYPES = ['DROPDOWN', 'RADIO'] as const;
export const DELIVERY_METHODS = ['EMAIL', 'SMS', 'EMAIL_AND_SMS', 'NONE'] as const;
export const SIGN_TYPES = ['DEFAULT', 'APPROVER', 'VIEWER'] as const;
export const REQUIRE_AUTH_VALUES = ['NONE', 'EMAIL_CODE', 'SMS_CODE'] as const;
export const FOOTER_TYPES = ['SIMPLE', 'NONE'] as const;
export const PERMISSION_TEMPLATES = ['CUSTOMER_ADMIN_USER', 'CUSTOMER_USER'] as const;
/**
 * The languages a party may read SignDesk in (a contract's `language`): each has its catalogue,
 * shared/i18n/catalogues/<code>.json. ISO 639-1 codes; `nb` is Norwegian Bokmål, `pt` European
 * Portuguese, `ar` Modern Standard Arabic (written right to left).
 */
export const LANGUAGES = ['en', 'sv', 'da', 'nb', 'fi', 'de', 'fr', 'es', 'it', 'nl', 'pl', 'pt', 'ar'] as const;
export const CONTRACT_STATUSES = ['draft', 'sent', 'signed', 'rejected'] as const;
export const TOKEN_KINDS = ['customer', 'partner'] as const;
/** The RFC 3161 timestamp of a signed PDF (see ApiContract.timestamp_status). */
export const TIMESTAMP_STATUSES = ['none', 'pending', 'signature', 'document'] as const;
/** Long-term validation of a signed PDF (see ApiContract.ltv_status). */
export const LTV_STATUSES = ['none', 'pending', 'done'] as const;

export type AnnotationType = (typeof ANNOTATION_TYPES)[number];
export type DeliveryMethod = (typeof DELIVERY_METHODS)[number];
export type SignType = (typeof SIGN_TYPES)[number];
export type RequireAuth = (typeof REQUIRE_AUTH_VALUES)[number];
export type FooterType = (typeof FOOTER_TYPES)[number];
export type PermissionTemplate = (typeof PERMISSION_TEMPLATES)[number];
export type Language = (typeof LANGUAGES)[number];
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];
export type TokenKind = (typeof TOKEN_KINDS)[number];
export type TimestampStatus = (typeof TIMESTAMP_STATUSES)[number];
export type LtvStatus = (typeof LTV_STATUSES)[number];
