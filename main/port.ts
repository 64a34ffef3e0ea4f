import net from 'node:net';

/** The server's own default (server/config/config.ts); a unit test keeps the two equal. */
export const DEFAULT_PORT = 8750;

export type PortChoice = {
  /** The PORT value the server is started with; '0' lets the OS pick a free port. */
  port: string;
  reason: 'configured' | 'default' | 'free';
};

/**
 * PORT when the office configured one (the server then fails plainly if it is taken, rather
 * than moving the address integrators use); else the usual 8750, or a free port when another
 * program holds 8750 (the tray shows the address).
 */
export async function choosePort(
  env: Record<string, string | undefined>,
  isFree: (host: string, port: number) => Promise<boolean>,
): Promise<PortChoice> {
  const configured = env.PORT?.trim();
  if (configured) return { port: configured, reason: 'configured' };
  const host = env.HOST?.trim() || '127.0.0.1';
  return (await isFree(host, DEFAULT_PORT))
    ? { port: String(DEFAULT_PORT), reason: 'default' }
    : { port: '0', reason: 'free' };
}

/** Tries to listen there for a moment. */
export function isPortFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}
