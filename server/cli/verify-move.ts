import { storedChainEntryOf, checkContractChain } from '../activity/contract-chain';
import type { ChainProblem } from '../activity/activity-chain';
import type { AppContext } from '../context/app-context';
import { countRows } from '../db/copy-tables';
import { storeOf } from '../db/stores';
import { checkAnchorChain } from '../evidence/anchors/check-anchors';
import { checkAnchoring } from '../evidence/anchors/check-anchoring';
import { verifyOfficeLog } from '../evidence/anchors/verify-log';
import { verifyPdf } from '../evidence/verify-pdf';

/**
 * The checks `npm run cli -- migrate` makes of the office it copied (issue 37, "Moving an
 * office"): the same rows in every table, the same keys, every contract's chain and the office
 * log intact on the target (against the heads their sealed audit trails print and the office
 * anchors' timestamps, as the API's /log/verify checks them) with the same heads as on the
 * source, and the newest seal judged intact by the target as the verify page judges it.
 * Each returns what is wrong (empty: nothing).
 */

/** Tables whose counts differ (sealed_keys is the target's own: its keys are compared by copyKeys' caller). */
/** Tables whose rows are not copied as they are: keys (compared one by one) and PostgreSQL's file chunks (files compared by hash). */
const NOT_COUNTED = ['sealed_keys', 'file_chunks'];

export async function compareCounts(source: AppContext, target: AppContext): Promise<string[]> {
  const [from, to] = [await countRows(source.db), await countRows(target.db)];
  return Object.keys(from)
    .filter((table) => !NOT_COUNTED.includes(table) && from[table] !== to[table])
    .map((table) => `${table}: ${from[table]} rows in SQLite, ${to[table] ?? 0} in PostgreSQL`);
}

/** Keys whose bytes differ or are missing in the target. */
export async function compareKeys(source: AppContext, target: AppContext): Promise<string[]> {
  const wrong: string[] = [];
  for (const name of await source.keys.list()) {
    const [from, to] = [await source.keys.read(name), await target.keys.read(name)];
    if (!from || !to || !from.equals(to)) wrong.push(`the key ${name} did not arrive whole`);
  }
  return wrong;
}

const describeProblems = (chain: string, problems: readonly ChainProblem[]) =>
  problems.slice(0, 3).map((problem) => `${chain} entry ${problem.sequence} ${problem.problem}`);

/** Every contract's chain and the office log, checked on the target and compared with the source's heads. */
export async function checkChains(
  source: AppContext,
  target: AppContext,
  onProgress: (checked: number, total: number) => void,
): Promise<{ problems: string[]; contracts: number; entries: number }> {
  const x = storeOf(target.db);
  const page = x.sql<{ id: number }>('SELECT id FROM contracts WHERE id > ? ORDER BY id LIMIT 500');
  const total = (await x.sql<{ n: number }>('SELECT count(*) AS n FROM contracts').get())?.n ?? 0;
  const anchorChain = await checkAnchorChain(target);
  const problems = anchorChain.problems.map((problem) => `office anchors: ${problem}`);
  let [contracts, entries, after] = [0, 0, 0];
  onProgress(contracts, total);
  for (;;) {
    const ids = (await page.all([after])).map((row) => row.id);
    if (ids.length === 0) break;
    for (const id of ids) {
      const chain = `/api/contracts/${id}`;
      const check = await checkContractChain(target, id);
      const stored = (await target.repos.activity.listChain(id)).map(storedChainEntryOf);
      const anchoring = checkAnchoring(chain, stored, anchorChain);
      problems.push(...describeProblems(chain, [...check.problems, ...anchoring.problems]));
      const before = (await checkContractChain(source, id)).head;
      if (before?.sequence !== check.head?.sequence || before?.hash !== check.head?.hash)
        problems.push(`${chain}: its chain ends elsewhere than in SQLite`);
      entries += check.entryCount;
      contracts += 1;
      if (problems.length > 20) return { problems, contracts, entries };
    }
    after = ids.at(-1)!;
    onProgress(contracts, total);
  }
  const office = await verifyOfficeLog(target);
  const officeBefore = await verifyOfficeLog(source);
  problems.push(...describeProblems('the office log', office.problems));
  if (officeBefore.head?.hash !== office.head?.hash) problems.push('the office log ends elsewhere than in SQLite');
  return { problems, contracts, entries: entries + office.entryCount };
}

/** The newest sealed contract's signed PDF, as the target's verify page judges it; undefined when no contract is sealed yet. */
export async function checkNewestSeal(
  target: AppContext,
): Promise<{ contractId: number; verdict: string; isValid: boolean; subject: string | null } | undefined> {
  const x = storeOf(target.db);
  const newest = await x
    .sql<{ contractId: number; fileId: number }>(
      `SELECT s.contract_id AS "contractId", c.signed_file_id AS "fileId"
         FROM contract_seals s JOIN contracts c ON c.id = s.contract_id
        WHERE c.signed_file_id IS NOT NULL ORDER BY s.contract_id DESC LIMIT 1`,
    )
    .get();
  if (!newest) return undefined;
  const file = await target.repos.files.readFile(newest.fileId);
  if (!file) return { contractId: newest.contractId, verdict: 'missing', isValid: false, subject: null };
  const result = await verifyPdf(target, file.data);
  return {
    contractId: newest.contractId,
    verdict: result.verdict,
    isValid: result.seal?.is_valid === true,
    subject: result.seal?.subject ?? null,
  };
}
