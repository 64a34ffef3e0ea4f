import type { Store } from '../store';

/**
 * A contract's metadata (string keys and values of the integrator's own). The list filter by a
 * key and value reads the (key, value, contract_id) index: see contracts.ts, `metadata` windows.
 */
export function createContractMetadataRepo(x: Store) {
  const listOf = x.sql<{ key: string; value: string }>(
    'SELECT key, value FROM contract_metadata WHERE contract_id = ? ORDER BY key',
  );
  const put = x.sql(
    'INSERT INTO contract_metadata (contract_id, key, value) VALUES (?, ?, ?) ON CONFLICT (contract_id, key) DO UPDATE SET value = excluded.value',
  );
  const drop = x.sql('DELETE FROM contract_metadata WHERE contract_id = ? AND key = ?');
  return {
    /** The metadata of a contract, keys in order. */
    listOf: async (contractId: number): Promise<Record<string, string>> =>
      Object.fromEntries((await listOf.all([contractId])).map((row) => [row.key, row.value])),
    set: async (contractId: number, key: string, value: string): Promise<void> => {
      await put.run([contractId, key, value]);
    },
    remove: async (contractId: number, key: string): Promise<void> => {
      await drop.run([contractId, key]);
    },
  };
}

export type ContractMetadataRepo = ReturnType<typeof createContractMetadataRepo>;
