import { and, count, eq, isNull, lt, or } from 'drizzle-orm';
import type { Store } from '../store';
import type { userTotp } from '../schema';

export type UserTotpRow = typeof userTotp.$inferSelect;

/** Users' authenticator apps and recovery codes (server/second-factor/ decides what they open). */
export function createSecondFactorRepo(x: Store) {
  const { orm, t } = x;
  return {
    findTotp: async (userId: number): Promise<UserTotpRow | undefined> =>
      x.get(orm.select().from(t.userTotp).where(eq(t.userTotp.userId, userId))),
    /** A new, unconfirmed secret in place of any the user had (confirmed ones are removed first). */
    putPendingTotp: async (userId: number, secretSealed: string, now: number): Promise<void> => {
      await x.run(
        orm
          .insert(t.userTotp)
          .values({ userId, secretSealed, createdAt: now })
          .onConflictDoUpdate({
            target: t.userTotp.userId,
            set: { secretSealed, createdAt: now, confirmedAt: null, lastStep: null },
          }),
      );
    },
    /**
     * Takes the code of `step`: true only if no code of this or a later step was taken before
     * (a compare-and-swap, so two requests with one code cannot both pass).
     */
    takeStep: async (userId: number, step: number): Promise<boolean> =>
      (
        await x.run(
          orm
            .update(t.userTotp)
            .set({ lastStep: step })
            .where(and(eq(t.userTotp.userId, userId), or(isNull(t.userTotp.lastStep), lt(t.userTotp.lastStep, step)))),
        )
      ).changes === 1,
    confirmTotp: async (userId: number, now: number): Promise<void> => {
      await x.run(orm.update(t.userTotp).set({ confirmedAt: now }).where(eq(t.userTotp.userId, userId)));
    },
    /** The authenticator app and every recovery code of the user go. */
    removeAll: async (userId: number): Promise<number> => {
      const removed = await x.run(orm.delete(t.userTotp).where(eq(t.userTotp.userId, userId)));
      await x.run(orm.delete(t.userRecoveryCodes).where(eq(t.userRecoveryCodes.userId, userId)));
      return removed.changes;
    },
    replaceRecoveryCodes: async (userId: number, hashes: string[], now: number): Promise<void> => {
      await x.run(orm.delete(t.userRecoveryCodes).where(eq(t.userRecoveryCodes.userId, userId)));
      await x.run(
        orm.insert(t.userRecoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash, createdAt: now }))),
      );
    },
    /** Marks an unused code used; false when there is none with that hash (or it was used, even just now). */
    useRecoveryCode: async (userId: number, codeHash: string, now: number): Promise<boolean> =>
      (
        await x.run(
          orm
            .update(t.userRecoveryCodes)
            .set({ usedAt: now })
            .where(
              and(
                eq(t.userRecoveryCodes.userId, userId),
                eq(t.userRecoveryCodes.codeHash, codeHash),
                isNull(t.userRecoveryCodes.usedAt),
              ),
            ),
        )
      ).changes > 0,
    countUnusedRecoveryCodes: async (userId: number): Promise<number> =>
      (
        await x.get<{ n: number }>(
          orm
            .select({ n: count() })
            .from(t.userRecoveryCodes)
            .where(and(eq(t.userRecoveryCodes.userId, userId), isNull(t.userRecoveryCodes.usedAt))),
        )
      )?.n ?? 0,
  };
}

export type SecondFactorRepo = ReturnType<typeof createSecondFactorRepo>;
