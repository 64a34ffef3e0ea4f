import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeysetRequest } from '../../server/db/keyset';
import {
  createTemplateFieldRepo,
  type NewRoleField,
  type NewTemplateField,
} from '../../server/db/repos/template-fields';
import { createTemplateRepo, type TemplateRepo } from '../../server/db/repos/templates';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../helpers/databases';
import { repoRows } from '../helpers/repo-rows';

/** Ids of every page newest first (two at a time), walked forward and then backward from the oldest. */
async function walk(
  listPage: (
    request: KeysetRequest,
  ) => Promise<{ rows: { id: number }[]; hasMore: boolean; firstValues?: unknown[]; lastValues?: unknown[] }>,
) {
  const forward: number[] = [];
  let page = await listPage({ isBackward: false, limit: 2 });
  forward.push(...page.rows.map((row) => row.id));
  while (page.hasMore) {
    page = await listPage({ isBackward: false, limit: 2, after: page.lastValues as number[] });
    forward.push(...page.rows.map((row) => row.id));
  }
  const backward = page.rows.map((row) => row.id);
  for (let before = page.firstValues; before;) {
    const previous = await listPage({ isBackward: true, limit: 2, after: before as number[] });
    backward.unshift(...previous.rows.map((row) => row.id));
    before = previous.hasMore ? previous.firstValues : undefined;
  }
  return { forward, backward };
}

for (const dialect of DIALECTS)
  describe(`templates and their fields on ${dialect}`, () => {
    let opened: TestDatabase;
    let rows: ReturnType<typeof repoRows>;
    let templates: TemplateRepo;
    let [anna, bo] = [0, 0];

    beforeAll(async () => {
      opened = await openTestDatabase(dialect);
      rows = repoRows(opened.store);
      templates = createTemplateRepo(opened.store);
      [anna, bo] = [await rows.addUser('anna'), await rows.addUser('bo')];
    });
    afterAll(() => opened?.close());

    const template = (createdBy: number, name: string, isPublished: boolean) =>
      templates.insert({
        name,
        isPublished,
        header: 'H',
        content: 'C',
        footer: 'F',
        footerType: 'SIMPLE',
        roleNames: '["Hyresvärd"]',
        createdBy,
        createdAt: 1,
        updatedAt: 2,
      });

    it('keeps templates, and counts and pages the ones a user may see', async () => {
      const published = await template(anna, 'Hyresavtal', true);
      expect(published).toMatchObject({
        name: 'Hyresavtal',
        isPublished: true,
        pdfFileId: null,
        pageSizes: null,
        roleNames: '["Hyresvärd"]',
        createdBy: anna,
      });
      const own = await template(bo, 'Bos utkast', false);
      const hidden = await template(anna, 'Annas utkast', false);
      expect(own.isPublished).toBe(false);
      expect(await templates.findById(published.id)).toEqual(published);
      expect(await templates.findById(published.id + 1000)).toBeUndefined();
      expect(await templates.count()).toBe(3);
      expect(await templates.count(bo)).toBe(2);
      expect(await walk((request) => templates.listPage(request, bo))).toEqual({
        forward: [own.id, published.id],
        backward: [own.id, published.id],
      });
      const everyone = [hidden.id, own.id, published.id];
      expect(await walk((request) => templates.listPage(request))).toEqual({ forward: everyone, backward: everyone });

      expect(await templates.update(hidden.id, { isPublished: true, name: 'Delat' })).toMatchObject({
        isPublished: true,
        name: 'Delat',
      });
      expect(await templates.count(bo)).toBe(3);
      expect(await templates.update(hidden.id + 1000, { name: 'x' })).toBeUndefined();
      expect(await templates.remove(hidden.id)).toBe(true);
      expect(await templates.remove(hidden.id)).toBe(false);
      expect(await templates.count()).toBe(2);
    });

    it('keeps a template’s fields, and the fields a contract waits to give its parties, role by role', async () => {
      const fields = createTemplateFieldRepo(opened.store);
      const owner = await template(anna, 'Med fält', false);
      expect(await fields.roleCount(owner.id)).toBe(0);
      const box = { pdfPage: 1, posX: 10.5, posY: 20.25, width: 100, height: 20, type: 'TEXT' };
      const field = (role: number, row: Partial<NewTemplateField> = {}): NewTemplateField => ({
        templateId: owner.id,
        role,
        ...box,
        createdBy: anna,
        createdAt: 1,
        updatedAt: 1,
        ...row,
      });
      const made = [
        await fields.insert(field(1, { label: 'Namn', options: '["a","b"]', inputRequired: false })),
        await fields.insert(field(3)),
        await fields.insert(field(2)),
      ];
      expect(made[0]).toMatchObject({
        role: 1,
        posX: 10.5,
        label: 'Namn',
        inputRequired: false,
        renderWhenSigned: true,
      });
      expect(await fields.findInTemplate(owner.id, made[1]!.id)).toEqual(made[1]);
      expect(await fields.findInTemplate(owner.id + 1000, made[1]!.id)).toBeUndefined();
      expect(await fields.update(made[1]!.id, { role: 4, hint: 'Här' })).toMatchObject({ role: 4, hint: 'Här' });
      expect(await fields.update(made[1]!.id + 1000, { role: 1 })).toBeUndefined();
      expect(await fields.countInTemplate(owner.id)).toBe(3);
      expect(await fields.roleCount(owner.id)).toBe(4);
      const ids = made.map((row) => row.id);
      expect((await fields.listInTemplate(owner.id)).map((row) => row.id)).toEqual(ids);
      expect(await walk((request) => fields.listPage(owner.id, request))).toEqual({
        forward: [...ids].reverse(),
        backward: [...ids].reverse(),
      });
      expect(await fields.remove(made[0]!.id)).toBe(true);
      expect(await fields.remove(made[0]!.id)).toBe(false);
      expect(await fields.countInTemplate(owner.id)).toBe(2);

      const contract = await rows.addContract(anna, await rows.addPdf('fields'));
      const waiting = (role: number, label: string): NewRoleField => ({ contractId: contract.id, role, ...box, label });
      expect(await fields.takeNextRole(contract.id)).toEqual([]);
      await fields.insertWaiting([waiting(2, 'a'), waiting(1, 'b'), waiting(2, 'c'), waiting(3, 'd'), waiting(1, 'e')]);
      expect(await fields.waitingRoles(contract.id)).toEqual([1, 2, 3]);
      expect((await fields.listWaiting(contract.id)).map((row) => row.label)).toEqual(['a', 'b', 'c', 'd', 'e']);
      expect((await fields.takeNextRole(contract.id)).map((row) => [row.role, row.label])).toEqual([
        [1, 'b'],
        [1, 'e'],
      ]);
      expect((await fields.takeRole(contract.id, 3)).map((row) => row.label)).toEqual(['d']);
      expect(await fields.takeRole(contract.id, 3)).toEqual([]);
      expect(await fields.waitingRoles(contract.id)).toEqual([2]);
      await fields.dropWaiting(contract.id);
      expect(await fields.listWaiting(contract.id)).toEqual([]);
      expect(await fields.takeNextRole(contract.id)).toEqual([]);
    });
  });
