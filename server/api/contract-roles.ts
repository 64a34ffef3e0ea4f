import { z } from 'zod';
import { partyPath } from '../../shared/api/paths';
import { ZContractRoleSchema, type TContractRole } from '../../shared/api/contract-roles';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import type { RouteContext } from '../http/route';
import type { ContractRow } from '../db/repos/contracts';
import { findContract } from '../contracts/find-draft';

/** Every role of a contract made from a PDF template: its name, its party (if any) and its fields still waiting. */
async function rolesOf(ctx: RouteContext, contract: ContractRow): Promise<TContractRole[]> {
  const names = JSON.parse(contract.roleNames) as string[];
  const waiting = new Map<number, number>();
  for (const field of await ctx.repos.templateFields.listWaiting(contract.id)) {
    waiting.set(field.role, (waiting.get(field.role) ?? 0) + 1);
  }
  const holders = new Map<number, string>();
  for (const party of await ctx.repos.parties.listInContract(contract.id)) {
    if (party.role !== null) holders.set(party.role, partyPath(party));
  }
  const count = Math.max(names.length, ...waiting.keys(), ...holders.keys(), 0);
  return Array.from({ length: count }, (_, index) => ({
    role_number: index + 1,
    name: names[index] || null,
    party: holders.get(index + 1) ?? null,
    fields_waiting: waiting.get(index + 1) ?? 0,
  }));
}

export const contractRoleRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/api/contracts/:contract_id/roles',
    operationId: 'listContractRoles',
    summary: 'List the roles of a contract made from a PDF template',
    description:
      'Each role of the template the contract was made from, in order: its name, the party that took it and how many fields still wait for a party. Empty for a contract not made from a PDF template. A party takes a role by naming it (`role`) when it is added, or in order.',
    tag: 'Contract parties',
    access: 'user',
    responses: { 200: { description: 'The roles, first to last', schema: z.array(ZContractRoleSchema) } },
    handler: async ({ res, ctx, ids, actor }) => {
      sendJson(res, 200, await rolesOf(ctx, await findContract(ctx, ids.contract_id, actor)));
    },
  }),
];
