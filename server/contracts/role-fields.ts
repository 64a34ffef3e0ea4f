import type { AppContext } from '../context/app-context';
import type { ContractRow } from '../db/repos/contracts';
import type { PartyRow } from '../db/repos/parties';
import type { RoleFieldRow, TemplateFieldRow } from '../db/repos/template-fields';
import type { RequestOrigin } from '../activity/log-activity';
import { AppError, validationFailed } from '../core/errors';
import { partyPath } from '../../shared/api/paths';
import { roleNameKey } from '../../shared/api/templates';
import { addAnnotation } from './save-annotation';

/** A contract made from a PDF template keeps its fields, per role, until parties come to take them. */
export async function copyTemplateFields(
  ctx: AppContext,
  contractId: number,
  fields: readonly TemplateFieldRow[],
): Promise<void> {
  await ctx.repos.templateFields.insertWaiting(
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

/** The names of a contract's template roles (as they were when it was made): index 0 is role 1. */
export const roleNamesOf = (contract: Pick<ContractRow, 'roleNames'>): string[] =>
  JSON.parse(contract.roleNames) as string[];

/** The role a party names, by its name in any case; a name the contract lacks is a 400 naming the ones it has. */
function roleNamed(contract: ContractRow, name: string): number {
  const names = roleNamesOf(contract);
  const index = names.findIndex((candidate) => candidate !== '' && roleNameKey(candidate) === roleNameKey(name));
  if (index >= 0) return index + 1;
  const known = names.filter((candidate) => candidate !== '');
  throw validationFailed([
    known.length === 0
      ? `role: this contract has no named roles, so "${name}" names none (leave role out to take the next role)`
      : `role: "${name}" is no role of this contract; its roles are ${known.map((k) => `"${k}"`).join(', ')}`,
  ]);
}

/**
 * A party just added takes its role's fields as its annotations, in the caller's transaction:
 * the role it names (once per contract: a role another party holds is a 409), or without a
 * name the lowest role still waiting (parties bind to the roles in the order they are added).
 */
export async function bindRole(
  ctx: AppContext,
  contract: ContractRow,
  party: PartyRow,
  roleName: string | null | undefined,
  userId: number,
  origin: RequestOrigin,
): Promise<PartyRow> {
  let role: number | null = null;
  let fields: RoleFieldRow[];
  if (roleName === undefined || roleName === null) {
    fields = await ctx.repos.templateFields.takeNextRole(party.contractId);
    role = fields[0]?.role ?? null;
  } else {
    role = roleNamed(contract, roleName);
    const holder = (await ctx.repos.parties.listInContract(contract.id)).find((other) => other.role === role);
    if (holder) {
      throw new AppError(
        'conflict',
        `The role "${roleNamesOf(contract)[role - 1]}" is already taken by ${partyPath(holder)} (${holder.name}); nothing was made.`,
      );
    }
    fields = await ctx.repos.templateFields.takeRole(party.contractId, role);
  }
  for (const field of fields) {
    const { id: _id, role: _role, ...rest } = field;
    await addAnnotation(ctx, { ...rest, partyId: party.id }, userId, origin);
  }
  if (role === null) return party;
  const roleNameThen = roleNamesOf(contract)[role - 1] || null;
  return (await ctx.repos.parties.update(party.id, { role, roleName: roleNameThen })) ?? party;
}
