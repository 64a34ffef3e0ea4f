import type { TContractUpdate } from '../../shared/api/contracts';
import { CHOICE_TYPES, type AnnotationType, type FooterType, type Language } from '../../shared/api/enums';
import { parseOptions } from '../../shared/field-answers';
import type { TBoxFields } from '../../shared/api/field-box';
import { MAX_PDF_PAGES } from '../../shared/constants';
import { parseTimestamp } from '../../shared/time';
import type { AppContext } from '../context/app-context';
import type { ContractChanges } from '../db/repos/contracts';
import type { TemplateRow } from '../db/repos/templates';
import { AppError, validationFailed } from '../core/errors';
import type { Actor } from '../core/actor';
import { PdfReadError, type PageSize } from '../pdf/pdf-read-error';
import { maySeeTemplate } from '../policies/templates';
import { reminderChangesOf } from '../settings/reminder-defaults';

/** The plain fields of a contract body (not template, not content) as column changes. */
export function contractChangesOf(ctx: AppContext, input: TContractUpdate): ContractChanges {
  const changes: ContractChanges = {};
  const errors: string[] = [];
  if (input.name !== undefined) changes.name = input.name;
  if (input.language !== undefined) changes.language = input.language;
  if (input.email_invite_content !== undefined) changes.emailInviteContent = input.email_invite_content;
  if (input.email_from_name !== undefined) changes.emailFromName = input.email_from_name;
  if (input.email_reply_to !== undefined) changes.emailReplyTo = input.email_reply_to;
  if (input.party_order_defined !== undefined) changes.partyOrderDefined = input.party_order_defined;
  if (input.show_identity_number !== undefined) changes.showIdentityNumber = input.show_identity_number;
  if (input.require_auth !== undefined) changes.requireAuth = input.require_auth;
  if (input.test_mode !== undefined) changes.isTest = input.test_mode;
  if (input.allow_delegation !== undefined) changes.allowDelegation = input.allow_delegation;
  if (input.expire_time === null) changes.expireAt = null;
  if (typeof input.expire_time === 'string') {
    const at = parseTimestamp(input.expire_time, ctx.config.timeZone);
    if (at === undefined) errors.push(`expire_time: is not a real time in ${ctx.config.timeZone}`);
    else if (at <= ctx.now()) errors.push('expire_time: must be in the future');
    else changes.expireAt = at;
  }
  if (errors.length > 0) throw validationFailed(errors);
  return { ...changes, ...reminderChangesOf(input) };
}

/**
 * The template a contract is made from: one the actor may see (an administrator any, other users
 * the published ones and their own), else (existing or not) no template.
 */
export async function resolveTemplate(ctx: AppContext, path: string, actor: Actor): Promise<TemplateRow> {
  const id = Number(path.split('/').at(-1));
  const template = await ctx.repos.templates.findById(id);
  if (!template || !maySeeTemplate(actor, template))
    throw validationFailed([`template: ${path} is no contract template`]);
  return template;
}

/** An uploaded PDF's pages' displayed sizes, and its SHA-256 and size (for putPlacedFile). */
export type UploadedPdf = { pageSizes: PageSize[]; sha256: string; size: number };

/**
 * Takes an uploaded PDF: its bytes go, without a copy, to the PDF worker that parses them,
 * hashes them and writes them into a file the store reserved (see db/file-store.ts), which is
 * then placed under its hash; what is wrong with it is a 400 invalid-pdf problem and leaves
 * nothing behind. The caller stores the row (`files.putPlacedFile`) and is done with `bytes`:
 * moved to the worker (empty afterwards), or lent when they are in the upload memory.
 */
export async function receiveUploadedPdf(ctx: AppContext, bytes: Uint8Array): Promise<UploadedPdf> {
  const size = bytes.byteLength;
  const staged = ctx.files.reserve();
  try {
    const info = await ctx.pdf.run(
      'inspect',
      { bytes, maxPages: MAX_PDF_PAGES, storeAt: staged.path },
      { giveBytes: true },
    );
    await staged.place(info.sha256);
    return { ...info, size };
  } catch (error) {
    await staged.discard();
    if (error instanceof PdfReadError) throw new AppError('invalid-pdf', error.message);
    throw error;
  }
}

export type RenderSource = {
  name: string;
  header: string;
  content: string;
  footer: string;
  footerType: string;
  language: string;
};

/** Renders a contract's PDF from its text; a text too long for MAX_PDF_PAGES is a validation error. */
export async function renderContractText(source: RenderSource): Promise<{ bytes: Uint8Array; pageSizes: PageSize[] }> {
  const { renderContractPdf, TooManyPagesError } = await import('../pdf/render-contract-pdf');
  try {
    return await renderContractPdf(
      {
        title: source.name,
        header: source.header,
        content: source.content,
        footer: source.footer,
        footerType: source.footerType as FooterType,
        language: source.language as Language,
      },
      MAX_PDF_PAGES,
    );
  } catch (error) {
    if (error instanceof TooManyPagesError) {
      throw validationFailed([`content: renders to ${error.pageCount} pages; at most ${MAX_PDF_PAGES}`]);
    }
    throw error;
  }
}

export function parsePageSizes(json: string): PageSize[] {
  return JSON.parse(json) as PageSize[];
}

/** Rounding of geometry sent as decimals: a box may touch the page edge. */
const EDGE_TOLERANCE = 1e-6;

export type Box = { pdfPage: number; posX: number; posY: number; width: number; height: number };

/** What is wrong with a box on these pages (origin top-left, y down), or undefined when it fits. */
export function boxProblem(box: Box, pageSizes: readonly PageSize[]): { field: string; message: string } | undefined {
  const size = pageSizes[box.pdfPage - 1];
  if (!size) return { field: 'pdf_page', message: `must be a page of the PDF, 1 to ${pageSizes.length}` };
  const [width, height] = size;
  if (box.posX + box.width > width + EDGE_TOLERANCE) {
    return {
      field: 'pos_x',
      message: `pos_x + width is ${box.posX + box.width}, past the width of page ${box.pdfPage} (${width} points)`,
    };
  }
  if (box.posY + box.height > height + EDGE_TOLERANCE) {
    return {
      field: 'pos_y',
      message: `pos_y + height is ${box.posY + box.height}, past the height of page ${box.pdfPage} (${height} points)`,
    };
  }
  return undefined;
}

/** Refuses (400) a box that does not fit the pages whose sizes `pageSizesJson` holds. */
export function checkBox(pageSizesJson: string, box: Box): void {
  const problem = boxProblem(box, parsePageSizes(pageSizesJson));
  if (problem) throw validationFailed([`${problem.field}: ${problem.message}`]);
}

export type BoxChanges = Partial<
  Box & {
    type: AnnotationType;
    content: string;
    label: string;
    hint: string;
    options: string | null;
    inputRequired: boolean;
    renderWhenSigned: boolean;
  }
>;

/**
 * Refuses (400) options that do not fit the field's type as it will be: a DROPDOWN or RADIO
 * needs 1 to 50 different options, any other type none.
 */
export function checkOptions(field: { type: string; options: string | null }): void {
  const options = parseOptions(field.options);
  const isChoice = (CHOICE_TYPES as readonly string[]).includes(field.type);
  if (isChoice && (options === null || options.length === 0)) {
    throw validationFailed([`options: a ${field.type} field needs its options, e.g. ["Monthly", "Yearly"]`]);
  }
  if (!isChoice && options !== null) {
    throw validationFailed([`options: only DROPDOWN and RADIO fields have options, not ${field.type}; send null`]);
  }
  if (options && new Set(options).size !== options.length) {
    throw validationFailed(['options: must all be different']);
  }
}

/** The columns a contract's annotation or a template's field changes when the API writes its box and kind. */
export function boxChangesOf(input: Partial<TBoxFields>): BoxChanges {
  const changes: BoxChanges = {};
  if (input.pdf_page !== undefined) changes.pdfPage = input.pdf_page;
  if (input.pos_x !== undefined) changes.posX = input.pos_x;
  if (input.pos_y !== undefined) changes.posY = input.pos_y;
  if (input.width !== undefined) changes.width = input.width;
  if (input.height !== undefined) changes.height = input.height;
  if (input.type !== undefined) changes.type = input.type;
  if (input.content !== undefined) changes.content = input.content;
  if (input.label !== undefined) changes.label = input.label;
  if (input.hint !== undefined) changes.hint = input.hint;
  if (input.options !== undefined) changes.options = input.options === null ? null : JSON.stringify(input.options);
  if (input.input_required !== undefined) changes.inputRequired = input.input_required;
  if (input.render_when_signed !== undefined) changes.renderWhenSigned = input.render_when_signed;
  return changes;
}
