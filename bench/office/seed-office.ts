import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inTransaction, openDatabase } from '../../server/db/open-database';
import { createContractRepo, foldName } from '../../server/db/repos/contracts';
import { storeOf } from '../../server/db/stores';
import { prepareDataDir } from '../lib';
import { makePaddedPdf } from '../pdf-bodies';

/** Bump when the seeded data changes, so that a cached office is built again. */
const SEED_VERSION = 2;
const CACHE = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'node_modules',
  '.cache',
  'signdesk-bench',
);
const CHUNK = 50_000;
const FIRST = ['Anna', 'Bo', 'Cecilia', 'David', 'Eva', 'Fredrik', 'Greta', 'Hugo', 'Ingrid', 'Johan', 'Åsa', 'Örjan'];
const LAST = ['Andersson', 'Berg', 'Ek', 'Lund', 'Nilsson', 'Öberg', 'Ström', 'Wallin', 'Holm', 'Sjöberg', 'Dahl'];

export type SeededOffice = { dataDir: string; key: string; size: number; userIds: number[] };

/** What contract `index` is called and who its parties are: the same at every size, so 1k and 1M compare. */
export function contractName(index: number): string {
  return `Avtal ${(index * 7919) % 1_000_003} Kund ${index % 977}`;
}
export function partyOf(index: number, role: number): { name: string; email: string; phone: string } {
  const first = FIRST[(index + role) % FIRST.length] as string;
  const last = LAST[(index * 7 + role) % LAST.length] as string;
  return {
    name: `${first} ${last} ${index}`,
    email: `p${role}-${index}@kund${index % 977}.example`,
    phone: `+4670${String((index * 2 + role) % 10_000_000).padStart(7, '0')}`,
  };
}

/**
 * Writes `size` contracts with two parties each straight into SQLite, as an import would: in
 * big transactions through prepared statements, with the list indexes and the search triggers
 * set aside and built once at the end (the search index from the same view its migration uses).
 */
function seedRows(file: string, size: number, userIds: number[]): Promise<void> {
  return makePaddedPdf(1, 0).then((pdf) => {
    const opened = openDatabase(file);
    const { sqlite } = opened;
    const now = Date.now();
    const fileId = Number(
      sqlite
        .prepare(
          `INSERT INTO stored_files (sha256, content_type, size, data, created_at) VALUES ('bench', 'application/pdf', ?, ?, ?)`,
        )
        .run(pdf.length, Buffer.from(pdf), now).lastInsertRowid,
    );
    const aside = sqlite
      .prepare(
        `SELECT type, name, sql FROM sqlite_master WHERE tbl_name IN ('contracts', 'parties') AND type IN ('index', 'trigger') AND sql IS NOT NULL`,
      )
      .all() as Array<{ type: string; name: string; sql: string }>;
    for (const item of aside) sqlite.exec(`DROP ${item.type.toUpperCase()} "${item.name}"`);
    const contract = sqlite.prepare(
      `INSERT INTO contracts (id, name, name_folded, status, source, original_file_id, page_sizes, created_by, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'upload', ?, '[[595.28,841.89]]', ?, ?, ?)`,
    );
    const party = sqlite.prepare(
      `INSERT INTO parties (contract_id, name, email, mobile_phone, sign_token_hash, created_by, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const statuses = ['draft', 'sent', 'signed', 'rejected', 'sent', 'signed'];
    for (let start = 0; start < size; start += CHUNK) {
      sqlite.transaction(() => {
        for (let index = start; index < Math.min(size, start + CHUNK); index += 1) {
          const name = contractName(index);
          const userId = userIds[index % userIds.length] as number;
          const id = index + 1;
          contract.run(id, name, foldName(name), statuses[index % statuses.length], fileId, userId, now, now);
          for (const role of [0, 1]) {
            const { name: partyName, email, phone } = partyOf(index, role);
            party.run(id, partyName, email, phone, `bench-${role}-${index}`, userId, now, now);
          }
        }
      })();
    }
    sqlite.transaction(() => {
      for (const item of aside) if (item.type === 'index') sqlite.exec(item.sql);
      sqlite.exec(
        'DELETE FROM contract_search; INSERT INTO contract_search (rowid, name, parties) SELECT id, name, parties FROM contract_search_source',
      );
      for (const item of aside) if (item.type === 'trigger') sqlite.exec(item.sql);
    })();
    const contracts = createContractRepo(storeOf(opened.db));
    return inTransaction(opened.db, () => contracts.recount()).finally(() => opened.close());
  });
}

/** A second user, so that the `user` filter has someone to leave out. */
function addClerk(file: string): number {
  const opened = openDatabase(file);
  const id = Number(
    opened.sqlite
      .prepare(
        `INSERT INTO users (username, email, permission_template, created_at) VALUES ('clerk', 'clerk@office.test', 'CUSTOMER_USER', ?)`,
      )
      .run(Date.now()).lastInsertRowid,
  );
  opened.close();
  return id;
}

async function buildOffice(size: number, prefix: string): Promise<SeededOffice> {
  const { dataDir, key } = await prepareDataDir(prefix);
  const file = path.join(dataDir, 'signdesk.sqlite');
  const userIds = [1, addClerk(file)];
  await seedRows(file, size, userIds);
  return { dataDir, key, size, userIds };
}

/**
 * An office of `size` seeded contracts. Large ones are built once into node_modules/.cache and
 * reused by later runs (the benchmark only reads them); small ones are built fresh in a temp dir.
 */
export async function seededOffice(size: number): Promise<SeededOffice & { isCached: boolean; seconds: number }> {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  if (size < 100_000) return { ...(await buildOffice(size, 'signdesk-bench-')), isCached: false, seconds: seconds() };
  const dir = path.join(CACHE, `office-${size}-v${SEED_VERSION}`);
  const manifest = path.join(dir, 'bench-office.json');
  if (fs.existsSync(manifest)) {
    return { ...(JSON.parse(fs.readFileSync(manifest, 'utf8')) as SeededOffice), isCached: true, seconds: seconds() };
  }
  const built = await buildOffice(size, 'signdesk-bench-seeding-');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(CACHE, { recursive: true });
  try {
    fs.renameSync(built.dataDir, dir);
  } catch {
    // Another file system: copy, then drop the temporary one.
    fs.cpSync(built.dataDir, dir, { recursive: true });
    fs.rmSync(built.dataDir, { recursive: true, force: true });
  }
  const office = { ...built, dataDir: dir };
  fs.writeFileSync(manifest, JSON.stringify(office));
  return { ...office, isCached: false, seconds: seconds() };
}
