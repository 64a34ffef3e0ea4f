import { and, asc, count, eq, max, sql } from 'drizzle-orm';
import { fetchKeysetPage, type KeysetPage, type KeysetRequest, type SortKey } from '../keyset';
import type { Db } from '../open-database';
import { contractRoleFields, templateFields } from '../schema';

export type TemplateFieldRow = typeof templateFields.$inferSelect;
export type NewTemplateField = Omit<typeof templateFields.$inferInsert, 'id'>;
export type TemplateFieldChanges = Partial<Omit<NewTemplateField, 'templateId' | 'createdAt' | 'createdBy'>>;
export type RoleFieldRow = typeof contractRoleFields.$inferSelect;
export type NewRoleField = Omit<typeof contractRoleFields.$inferInsert, 'id'>;

const NEWEST_FIRST: SortKey<TemplateFieldRow>[] = [
  { column: templateFields.id, isDescending: true, valueOf: (row) => row.id },
];

/** A PDF template's fields, and the fields a contract copied from one that wait for their party. */
export function createTemplateFieldRepo(db: Db) {
  const inTemplate = db
    .select()
    .from(templateFields)
    .where(
      and(eq(templateFields.templateId, sql.placeholder('templateId')), eq(templateFields.id, sql.placeholder('id'))),
    )
    .prepare();
  return {
    findInTemplate: async (templateId: number, id: number): Promise<TemplateFieldRow | undefined> =>
      inTemplate.get({ templateId, id }),
    insert: async (row: NewTemplateField): Promise<TemplateFieldRow> =>
      db.insert(templateFields).values(row).returning().get(),
    update: async (id: number, changes: TemplateFieldChanges): Promise<TemplateFieldRow | undefined> =>
      db.update(templateFields).set(changes).where(eq(templateFields.id, id)).returning().get(),
    remove: async (id: number): Promise<boolean> =>
      db.delete(templateFields).where(eq(templateFields.id, id)).run().changes > 0,
    countInTemplate: async (templateId: number): Promise<number> =>
      db.select({ n: count() }).from(templateFields).where(eq(templateFields.templateId, templateId)).get()?.n ?? 0,
    /** The highest role a field names: the template's number of roles. */
    roleCount: async (templateId: number): Promise<number> =>
      db
        .select({ n: max(templateFields.role) })
        .from(templateFields)
        .where(eq(templateFields.templateId, templateId))
        .get()?.n ?? 0,
    listInTemplate: async (templateId: number): Promise<TemplateFieldRow[]> =>
      db
        .select()
        .from(templateFields)
        .where(eq(templateFields.templateId, templateId))
        .orderBy(asc(templateFields.id))
        .all(),
    listPage: async (templateId: number, request: KeysetRequest): Promise<KeysetPage<TemplateFieldRow>> =>
      fetchKeysetPage(NEWEST_FIRST, request, eq(templateFields.templateId, templateId), (where, orderBy, limit) =>
        db
          .select()
          .from(templateFields)
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .all(),
      ),

    insertWaiting: async (rows: NewRoleField[]): Promise<void> => {
      for (const row of rows) db.insert(contractRoleFields).values(row).run();
    },
    /** The waiting fields of the lowest role still waiting on a contract, taken off the list. */
    takeNextRole: async (contractId: number): Promise<RoleFieldRow[]> => {
      const next = db
        .select({ role: sql<number | null>`min(${contractRoleFields.role})` })
        .from(contractRoleFields)
        .where(eq(contractRoleFields.contractId, contractId))
        .get()?.role;
      if (next === null || next === undefined) return [];
      return db
        .delete(contractRoleFields)
        .where(and(eq(contractRoleFields.contractId, contractId), eq(contractRoleFields.role, next)))
        .returning()
        .all()
        .sort((a, b) => a.id - b.id);
    },
    /** The waiting fields of one role on a contract, taken off the list. */
    takeRole: async (contractId: number, role: number): Promise<RoleFieldRow[]> =>
      db
        .delete(contractRoleFields)
        .where(and(eq(contractRoleFields.contractId, contractId), eq(contractRoleFields.role, role)))
        .returning()
        .all()
        .sort((a, b) => a.id - b.id),
    /** The roles whose fields still wait for a party on a contract. */
    waitingRoles: async (contractId: number): Promise<number[]> =>
      db
        .selectDistinct({ role: contractRoleFields.role })
        .from(contractRoleFields)
        .where(eq(contractRoleFields.contractId, contractId))
        .orderBy(asc(contractRoleFields.role))
        .all()
        .map((row) => row.role),
    /** The fields still waiting for a party on a contract, every role, in the order they were copied. */
    listWaiting: async (contractId: number): Promise<RoleFieldRow[]> =>
      db
        .select()
        .from(contractRoleFields)
        .where(eq(contractRoleFields.contractId, contractId))
        .orderBy(asc(contractRoleFields.id))
        .all(),
    dropWaiting: async (contractId: number): Promise<void> => {
      db.delete(contractRoleFields).where(eq(contractRoleFields.contractId, contractId)).run();
    },
  };
}

export type TemplateFieldRepo = ReturnType<typeof createTemplateFieldRepo>;
