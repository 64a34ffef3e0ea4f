import { parseHostEvent, type THostEvent, type THostRequest, type TServerStatus } from '../shared/host-messages';

/**
 * The narrow boundary to the server's process: an Electron utility process in the app, a
 * Node `child_process.fork` in the tests. Everything above it is the same code.
 */
export type HostChannel = {
  post(request: THostRequest): void;
  onMessage(listener: (message: unknown) => void): void;
  /** `code` is null when the process was ended by a signal. */
  onExit(listener: (code: number | null) => void): void;
  kill(): void;
};

export type HostReady = { url: string; dataDir: string; logsDir: string };

export type HostCrash = { code: number | null; message: string | undefined; logsDir: string | null };

export type HostShutdown = { code: number | null; isKilled: boolean };

export class HostStartError extends Error {
  constructor(
    message: string,
    readonly logsDir: string | null,
  ) {
    super(message);
    this.name = 'HostStartError';
  }
}

export type HostClient = {
  /** The ready message; rejects with HostStartError (and kills the process) on failure, exit or timeout. */
  ready: Promise<HostReady>;
  status(): Promise<TServerStatus>;
  /** A one-time admin sign-in URL, or null when the server has none to give. */
  adminLoginUrl(): Promise<string | null>;
  /** Resolves when the host confirms that shutdown has begun. */
  whenStopping(): Promise<void>;
  /** Asks the host to finish its work and exit; kills it when it takes longer than `timeoutMs`. */
  shutdown(timeoutMs: number): Promise<HostShutdown>;
  /** Called once if the host exits after ready without being asked to (a crash). */
  onCrash(listener: (crash: HostCrash) => void): void;
};

export type HostClientOptions = { readyTimeoutMs: number; requestTimeoutMs?: number };

type Pending = { type: string; resolve(event: THostEvent): void; reject(err: Error): void; timer: NodeJS.Timeout };

type Phase = 'starting' | 'running' | 'stopping' | 'exited';

export function connectHost(channel: HostChannel, options: HostClientOptions): HostClient {
  const requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
  const pending = new Map<number, Pending>();
  const crashListeners: Array<(crash: HostCrash) => void> = [];
  let phase: Phase = 'starting';
  let nextId = 1;
  let failure: { message: string; logsDir: string | null } | undefined;
  let logsDir: string | null = null;
  let resolveExit: (code: number | null) => void = () => {};
  const exited = new Promise<number | null>((resolve) => (resolveExit = resolve));
  let resolveStopping: () => void = () => {};
  const stopping = new Promise<void>((resolve) => (resolveStopping = resolve));

  let settleReady: { resolve(ready: HostReady): void; reject(err: HostStartError): void } | undefined;
  const ready = new Promise<HostReady>((resolve, reject) => (settleReady = { resolve, reject }));
  // Whoever starts the host awaits `ready`; this keeps an unobserved failure from being unhandled.
  ready.catch(() => {});
  const readyTimer = setTimeout(() => {
    failStart(
      new HostStartError(
        `The server did not report ready within ${Math.round(options.readyTimeoutMs / 1000)} s.`,
        logsDir,
      ),
    );
    channel.kill();
  }, options.readyTimeoutMs);

  function failStart(err: HostStartError) {
    clearTimeout(readyTimer);
    settleReady?.reject(err);
    settleReady = undefined;
  }

  channel.onMessage((message) => {
    const event = parseHostEvent(message);
    if (!event) return;
    switch (event.type) {
      case 'ready':
        clearTimeout(readyTimer);
        logsDir = event.logsDir;
        if (phase === 'starting') phase = 'running';
        settleReady?.resolve({ url: event.url, dataDir: event.dataDir, logsDir: event.logsDir });
        settleReady = undefined;
        return;
      case 'failed':
        failure = { message: event.message, logsDir: event.logsDir };
        logsDir = event.logsDir ?? logsDir;
        if (phase === 'starting') failStart(new HostStartError(event.message, event.logsDir));
        return;
      case 'stopping':
        resolveStopping();
        return;
      case 'status':
      case 'admin-login-url':
      case 'request-failed': {
        const request = pending.get(event.id);
        if (!request) return;
        pending.delete(event.id);
        clearTimeout(request.timer);
        if (event.type === 'request-failed') request.reject(new Error(event.message));
        else if (event.type !== request.type) request.reject(new Error(`expected ${request.type}, got ${event.type}`));
        else request.resolve(event);
      }
    }
  });

  channel.onExit((code) => {
    const wasPhase = phase;
    phase = 'exited';
    for (const request of pending.values()) {
      clearTimeout(request.timer);
      request.reject(new Error('the server process exited'));
    }
    pending.clear();
    if (settleReady) {
      failStart(
        new HostStartError(
          failure?.message ?? `The server process exited during start-up (exit code ${code}).`,
          failure?.logsDir ?? logsDir,
        ),
      );
    }
    if (wasPhase === 'running') {
      for (const listener of crashListeners)
        listener({ code, message: failure?.message, logsDir: failure?.logsDir ?? logsDir });
    }
    resolveExit(code);
  });

  const request = <T extends 'status' | 'admin-login-url'>(type: T) =>
    new Promise<Extract<THostEvent, { type: T }>>((resolve, reject) => {
      if (phase !== 'running') return reject(new Error(`the server is ${phase}`));
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`no answer to ${type} within ${requestTimeoutMs} ms`));
      }, requestTimeoutMs);
      pending.set(id, { type, resolve: (event) => resolve(event as Extract<THostEvent, { type: T }>), reject, timer });
      channel.post({ type, id });
    });

  return {
    ready,
    async status() {
      const { type: _type, id: _id, ...status } = await request('status');
      return status;
    },
    async adminLoginUrl() {
      return (await request('admin-login-url')).url;
    },
    whenStopping: () => stopping,
    async shutdown(timeoutMs) {
      if (phase === 'exited') return { code: await exited, isKilled: false };
      phase = 'stopping';
      clearTimeout(readyTimer);
      channel.post({ type: 'shutdown' });
      let isKilled = false;
      const timer = setTimeout(() => {
        isKilled = true;
        channel.kill();
      }, timeoutMs);
      const code = await exited;
      clearTimeout(timer);
      return { code, isKilled };
    },
    onCrash(listener) {
      crashListeners.push(listener);
    },
  };
}
