/**
 * A SignDesk server in a child process for the crash test: it starts on DATA_DIR, says where
 * it listens, and records webhook events when asked. The parent kills it with SIGKILL.
 */
import { createServer, loadConfig } from '../../server/index';
import { recordTestEvents } from './webhooks';

type Command = { type: 'record'; contractIds: number[] } | { type: 'shutdown' };

const server = await createServer(loadConfig(process.env));
process.on('message', async (command: Command) => {
  if (command.type === 'record') {
    const ids = await recordTestEvents(
      server,
      command.contractIds.map((id) => ['contract.signed', { id: `/api/contracts/${id}` }] as const),
    );
    process.send?.({ type: 'recorded', ids });
  } else if (command.type === 'shutdown') {
    void server.close().then(() => process.exit(0));
  }
});
process.send?.({ type: 'ready', url: server.url });
