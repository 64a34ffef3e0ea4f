import type Database from 'better-sqlite3';
import type { AppContext } from '../../context';
import type { Db } from '../open-database';

/** The nine `email_status` booleans of a party (interface.md, ApiContractParty). */
export const EMAIL_STATUS_FLAGS = [
  'sent',
  'opened',
  'clicked',
  'bounced',
  'hardbounced',
  'softbounced',
  'blocked',
  'unsub',
  'spam',
] as const;

export type EmailStatusFlag = (typeof EMAIL_STATUS_FLAGS)[number];
export type PartyEmailFlags = Partial<Record<EmailStatusFlag, boolean>>;

type Statement = Database.Statement<[Record<string, number>]>;

const statements = new WeakMap<Db, Statement>();

/**
 * MERGE(contracts): the parties table and its `email_*` columns belong to the contracts branch.
 * Until both are merged this finds them at run time and writes them with raw SQL; once they are
 * here, replace this body with a prepared drizzle update on `parties` (same signature, same
 * "only ever turn flags on" rule) and drop the table lookup.
 */
function prepareUpdate(db: Db): Statement | undefined {
  const cached = statements.get(db);
  if (cached) return cached;
  const columns = db.$client.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('parties')").all();
  const names = new Set(columns.map((column) => column.name));
  if (!EMAIL_STATUS_FLAGS.every((flag) => names.has(`email_${flag}`))) return undefined;
  const assignments = EMAIL_STATUS_FLAGS.map((flag) => `email_${flag} = (email_${flag} OR @${flag})`).join(', ');
  const statement = db.$client.prepare<[Record<string, number>]>(`UPDATE parties SET ${assignments} WHERE id = @id`);
  statements.set(db, statement);
  return statement;
}

/**
 * Turns on the given `email_status` flags of a party; flags are facts that happened (a mail was
 * sent, a bounce came back), so none is ever turned off here. Call it inside the transaction
 * that records the message's outcome. Returns false when no such party (or table) exists.
 */
export function markPartyEmailStatus(ctx: Pick<AppContext, 'db'>, partyId: number, flags: PartyEmailFlags): boolean {
  const statement = prepareUpdate(ctx.db);
  if (!statement) return false;
  const values: Record<string, number> = { id: partyId };
  for (const flag of EMAIL_STATUS_FLAGS) values[flag] = flags[flag] === true ? 1 : 0;
  return statement.run(values).changes > 0;
}
