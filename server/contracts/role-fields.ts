import type { AppContext } from '../context/app-context';
import type { PartyRow } from '../db/repos/parties';
import type { TemplateFieldRow } from '../db/repos/template-fields';
import type { RequestOrigin } from '../activity/log-activity';
import { addAnnotation } from './save-annotation';

/** A contract made from a PDF template keeps its fields, per role, until parties come to take them. */
export function copyTemplateFields(ctx: AppContext, contractId: number, fields: readonly TemplateFieldRow[]): void {
  ctx.repos.templateFields.insertWaiting(
    fields.map((field) => ({
      contractId,
      role: field.role,
      pdfPage: field.pdfPage,
      posX: field.posX,
      posY: field.posY,
      width: field.width,
      height: field.height,
      type: field.type,
      content: field.content,
      label: field.label,
      hint: field.hint,
      options: field.options,
      inputRequired: field.inputRequired,
      renderWhenSigned: field.renderWhenSigned,
      tagBox: field.tagBox,
    })),
  );
}

/**
 * A party just added takes the fields of the lowest role still waiting (parties bind to the
 * roles in the order they are added), as its annotations; in the caller's transaction.
 */
export function bindNextRole(ctx: AppContext, party: PartyRow, userId: number, origin: RequestOrigin): void {
  for (const field of ctx.repos.templateFields.takeNextRole(party.contractId)) {
    const { id: _id, role: _role, ...rest } = field;
    addAnnotation(ctx, { ...rest, partyId: party.id }, userId, origin);
  }
}
