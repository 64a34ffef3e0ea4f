import type { Language } from '../../shared/api/enums';
import type { AuditTime } from './format-audit-time';
import type { AnnotationType } from '../../shared/api/enums';

export type { AuditTime } from './format-audit-time';

import type { ScriptFace } from '../../shared/signing-page';

/**
 * A party's mark: its name (and initials) typed in a script face, or drawn or uploaded
 * pictures (PNG, already checked and re-encoded), with the face for typed initials beside them.
 */
export type SignedPdfMark = {
  face: ScriptFace;
  signaturePng?: Uint8Array | undefined;
  initialsPng?: Uint8Array | undefined;
};

export type SignedPdfFieldType = AnnotationType;

/** A filled annotation: PDF points from the top-left of the page as displayed, y down; page 1-based. */
export type SignedPdfField = {
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  type: SignedPdfFieldType;
  /**
   * SIGNATURE/INITIALS: the text to render in script (empty or true: the signer's name or its
   * initials), or a drawn mark as a `data:image/png;base64,…` URL. CHECKBOX: true/false.
   * Others: the text.
   */
  value: string | boolean;
  signerName: string;
  /** RADIO: its options, the chosen one (the value) marked. */
  options?: string[] | undefined;
  /** SIGNATURE/INITIALS: the party's mark; without one, the value as above. */
  mark?: SignedPdfMark | undefined;
  /** When the signer signed (the caption under a signature mark); default the party's signedTime by name. */
  signedTime?: AuditTime;
};

export type SignedPdfParty = {
  name: string;
  /** The name the party signed with, when it typed one (shown beside its mark). */
  signatureName?: string | undefined;
  /** The party's mark, shown on the audit trail (signers; approvers and viewers make none). */
  mark?: SignedPdfMark | undefined;
  contact: string;
  /** Printed only when given: the contract shows identity numbers (show_identity_number). */
  identityNumber?: string;
  /** DEFAULT (signs), APPROVER, VIEWER, or any other word, printed as it is. */
  signType: string;
  ipAddress: string;
  userAgent: string;
  /** NONE, EMAIL_CODE, SMS_CODE, or any other word, printed as it is. */
  authentication: string;
  sentTime: AuditTime;
  openedTime: AuditTime;
  signedTime: AuditTime;
};

/** One activity-log entry as the audit trail lists it. */
export type SignedPdfEvent = {
  sequence: number;
  time: AuditTime;
  /** The event code (contract.sent, party.signed, …): shown by its label in shared/activity-events.ts. */
  event: string;
  /** Who: the acting user, the party, or empty for the appliance itself. */
  actor: string;
  /** Whom it was about, when not the actor (the party invited, reminded, sent a code). */
  about?: string;
  ipAddress: string;
  userAgent: string;
  details: Readonly<Record<string, string>>;
  hash: string;
};

/** What the seal's evidence adds to the audit trail (all optional: an older caller prints none of it). */
export type SignedPdfEvidence = {
  /** The activity log up to and including the entry of the signing, oldest first. */
  events?: SignedPdfEvent[];
  /** The last entry's place and hash: the head of the hash chain sealed into the PDF. */
  chainHead?: { sequence: number; hash: string };
  attachments?: { name: string; size: number; sha256: string }[];
  /** The files parties attached to ATTACHMENT fields, each named with its party and field. */
  partyFiles?: { name: string; size: number; sha256: string }[];
  /** The RFC 3161 authority asked for a timestamp of the seal; null: none configured; undefined: say nothing. */
  timestampAuthority?: string | null;
};

export type SignedPdfAudit = SignedPdfEvidence & {
  documentName: string;
  /** Hex SHA-256 of `original`; checked against it. */
  documentSha256: string;
  contractId: number | string;
  parties: SignedPdfParty[];
  completedTime: AuditTime;
  /** IANA zone of the printed times, e.g. Europe/Stockholm. */
  timeZone: string;
};

/** A box painted white under the fields: where a text tag was written (the tag never shows). */
export type SignedPdfCover = { page: number; x: number; y: number; width: number; height: number };

export type SignedPdfInput = {
  original: Uint8Array;
  fields: SignedPdfField[];
  covers?: SignedPdfCover[];
  audit: SignedPdfAudit;
  /** Labels of the audit trail and captions; default en. */
  language?: Language;
  /** Who the audit page is from: the office's name, its accent (#rrggbb) and its logo (a PNG SignDesk made). */
  brand?: { officeName: string; accentColor?: string | undefined; logoPng?: Uint8Array | undefined };
  /** The sealing time (the signature's /M); default now. */
  now?: Date;
  /** Bytes to keep free in the signature for a timestamp token added after sealing (0: none). */
  timestampRoom?: number;
};
