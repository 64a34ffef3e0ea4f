import { randomBytes } from 'node:crypto';
import type { Store } from '../../server/db/store';

/**
 * Rows the repositories' own tests stand on (a user, a contract), written through the Store as
 * a repository would, so that the same call makes them on SQLite and on PostgreSQL.
 */
export async function addUser(
  x: Store,
  username: string,
  fields: { permissionTemplate?: string; active?: boolean; createdAt?: number } = {},
): Promise<number> {
  const row = await x.get<{ id: number }>(
    x.orm
      .insert(x.t.users)
      .values({
        username,
        email: `${username}@office.test`,
        permissionTemplate: fields.permissionTemplate ?? 'CUSTOMER_ADMIN_USER',
        active: fields.active ?? true,
        createdAt: fields.createdAt ?? 1_000,
      })
      .returning({ id: x.t.users.id }),
  );
  return row!.id;
}

/** A draft contract over a stored file of its own; its id. */
export async function addContract(x: Store, createdBy: number, now = 1_000): Promise<number> {
  const file = await x.get<{ id: number }>(
    x.orm
      .insert(x.t.storedFiles)
      .values({
        sha256: randomBytes(32).toString('hex'),
        contentType: 'application/pdf',
        size: 4,
        data: Buffer.from('%PDF'),
        createdAt: now,
      })
      .returning({ id: x.t.storedFiles.id }),
  );
  const contract = await x.get<{ id: number }>(
    x.orm
      .insert(x.t.contracts)
      .values({
        source: 'upload',
        originalFileId: file!.id,
        pageSizes: '[]',
        createdBy,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: x.t.contracts.id }),
  );
  return contract!.id;
}
