import { and, asc, count, eq, max, min, sql } from 'drizzle-orm';
import { fetchKeysetPage, type KeysetPage, type KeysetRequest, type SortKey } from '../keyset';
import type { Store } from '../store';
import type { contractRoleFields, templateFields } from '../schema';

export type TemplateFieldRow = typeof templateFields.$inferSelect;
export type NewTemplateField = Omit<typeof templateFields.$inferInsert, 'id'>;
export type TemplateFieldChanges = Partial<Omit<NewTemplateField, 'templateId' | 'createdAt' | 'createdBy'>>;
export type RoleFieldRow = typeof contractRoleFields.$inferSelect;
export type NewRoleField = Omit<typeof contractRoleFields.$inferInsert, 'id'>;

/** A PDF template's fields, and the fields a contract copied from one that wait for their party. */
export function createTemplateFieldRepo(x: Store) {
  const { orm, t } = x;
  const newestFirst: SortKey<TemplateFieldRow>[] = [
    { column: t.templateFields.id, isDescending: true, valueOf: (row) => row.id },
  ];
  const inTemplate = x.prepare<TemplateFieldRow>((o, t) =>
    o
      .select()
      .from(t.templateFields)
      .where(
        and(
          eq(t.templateFields.templateId, sql.placeholder('templateId')),
          eq(t.templateFields.id, sql.placeholder('id')),
        ),
      ),
  );
  /** Takes a role's waiting fields off the list, in the order they were copied. */
  const takeFields = async (contractId: number, role: number): Promise<RoleFieldRow[]> =>
    (
      await x.all<RoleFieldRow>(
        orm
          .delete(t.contractRoleFields)
          .where(and(eq(t.contractRoleFields.contractId, contractId), eq(t.contractRoleFields.role, role)))
          .returning(),
      )
    ).sort((a, b) => a.id - b.id);
  return {
    findInTemplate: async (templateId: number, id: number): Promise<TemplateFieldRow | undefined> =>
      inTemplate.get({ templateId, id }),
    insert: async (row: NewTemplateField): Promise<TemplateFieldRow> =>
      (await x.get<TemplateFieldRow>(orm.insert(t.templateFields).values(row).returning()))!,
    update: async (id: number, changes: TemplateFieldChanges): Promise<TemplateFieldRow | undefined> =>
      x.get(orm.update(t.templateFields).set(changes).where(eq(t.templateFields.id, id)).returning()),
    remove: async (id: number): Promise<boolean> =>
      (await x.run(orm.delete(t.templateFields).where(eq(t.templateFields.id, id)))).changes > 0,
    countInTemplate: async (templateId: number): Promise<number> =>
      (
        await x.get<{ n: number }>(
          orm.select({ n: count() }).from(t.templateFields).where(eq(t.templateFields.templateId, templateId)),
        )
      )?.n ?? 0,
    /** The highest role a field names: the template's number of roles. */
    roleCount: async (templateId: number): Promise<number> =>
      (
        await x.get<{ n: number | null }>(
          orm
            .select({ n: max(t.templateFields.role) })
            .from(t.templateFields)
            .where(eq(t.templateFields.templateId, templateId)),
        )
      )?.n ?? 0,
    listInTemplate: async (templateId: number): Promise<TemplateFieldRow[]> =>
      x.all(
        orm
          .select()
          .from(t.templateFields)
          .where(eq(t.templateFields.templateId, templateId))
          .orderBy(asc(t.templateFields.id)),
      ),
    listPage: async (templateId: number, request: KeysetRequest): Promise<KeysetPage<TemplateFieldRow>> =>
      fetchKeysetPage(newestFirst, request, eq(t.templateFields.templateId, templateId), (where, orderBy, limit) =>
        x.all(
          orm
            .select()
            .from(t.templateFields)
            .where(where)
            .orderBy(...orderBy)
            .limit(limit),
        ),
      ),

    insertWaiting: async (rows: NewRoleField[]): Promise<void> => {
      for (const row of rows) await x.run(orm.insert(t.contractRoleFields).values(row));
    },
    /** The waiting fields of the lowest role still waiting on a contract, taken off the list. */
    takeNextRole: async (contractId: number): Promise<RoleFieldRow[]> => {
      const next = (
        await x.get<{ role: number | null }>(
          orm
            .select({ role: min(t.contractRoleFields.role) })
            .from(t.contractRoleFields)
            .where(eq(t.contractRoleFields.contractId, contractId)),
        )
      )?.role;
      if (next === null || next === undefined) return [];
      return takeFields(contractId, next);
    },
    /** The waiting fields of one role on a contract, taken off the list. */
    takeRole: async (contractId: number, role: number): Promise<RoleFieldRow[]> => takeFields(contractId, role),
    /** The roles whose fields still wait for a party on a contract. */
    waitingRoles: async (contractId: number): Promise<number[]> =>
      (
        await x.all<{ role: number }>(
          orm
            .selectDistinct({ role: t.contractRoleFields.role })
            .from(t.contractRoleFields)
            .where(eq(t.contractRoleFields.contractId, contractId))
            .orderBy(asc(t.contractRoleFields.role)),
        )
      ).map((row) => row.role),
    /** The fields still waiting for a party on a contract, every role, in the order they were copied. */
    listWaiting: async (contractId: number): Promise<RoleFieldRow[]> =>
      x.all(
        orm
          .select()
          .from(t.contractRoleFields)
          .where(eq(t.contractRoleFields.contractId, contractId))
          .orderBy(asc(t.contractRoleFields.id)),
      ),
    dropWaiting: async (contractId: number): Promise<void> => {
      await x.run(orm.delete(t.contractRoleFields).where(eq(t.contractRoleFields.contractId, contractId)));
    },
  };
}

export type TemplateFieldRepo = ReturnType<typeof createTemplateFieldRepo>;
