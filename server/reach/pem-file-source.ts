import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../config/config';
import type { Logger } from '../logging/logger';
import { describeCertificate, makeTlsPair, type CertificateSource, type TlsPair } from '../crypto/certificate-source';

/** Editors and certbot write a file in steps: wait for the writes to settle before reading. */
const SETTLE_MS = 200;
/** A poll besides the watcher: some file systems (network shares, some containers) send no events. */
const POLL_MS = 10_000;

/**
 * The office's own certificate and key (PUBLIC_TLS_CERT, PUBLIC_TLS_KEY). The files are watched
 * (their folders, so a file replaced by a rename or a symlink swap is seen) and polled; on a
 * change both are read again and checked, and a good new pair is served from the next
 * handshake on. A bad pair (a half-written file, a key of another certificate) keeps the old
 * one served and is recorded as the last error, for the admin's reach page.
 */
export function pemFileSource(options: {
  certPath: string;
  keyPath: string;
  now: () => number;
  logger: Logger;
}): CertificateSource {
  const { certPath, keyPath, now, logger } = options;
  let pair: TlsPair | undefined;
  let loadedAt: number | null = null;
  let lastError: { message: string; at: number } | undefined;
  const listeners: (() => void)[] = [];
  const watchers: fs.FSWatcher[] = [];
  let settle: NodeJS.Timeout | undefined;
  let isClosed = false;

  const readPair = (): TlsPair => {
    let cert: string;
    let key: string;
    try {
      cert = fs.readFileSync(certPath, 'utf8');
      key = fs.readFileSync(keyPath, 'utf8');
    } catch (error) {
      throw new Error(`cannot read ${(error as NodeJS.ErrnoException).path ?? 'the files'}`, { cause: error });
    }
    return makeTlsPair(key, cert);
  };

  const reload = () => {
    if (isClosed) return;
    let next: TlsPair;
    try {
      next = readPair();
    } catch (error) {
      const message = `PUBLIC_TLS_CERT/PUBLIC_TLS_KEY: ${(error as Error).message}; the previous certificate is still served`;
      if (lastError?.message !== message) logger.warn({ certPath, keyPath }, message);
      lastError = { message, at: now() };
      return;
    }
    lastError = undefined;
    if (pair && pair.cert === next.cert && pair.key === next.key) return;
    pair = next;
    loadedAt = now();
    logger.info({ certPath }, 'the public certificate was reloaded');
    warnIfInvalid();
    for (const listener of listeners) listener();
  };
  /**
   * The served certificate outside its validity (expired, or not valid yet), which browsers
   * refuse: said on the admin's reach page as an error, where it loaded with none (review
   * 2026-12-07), and logged when the pair is loaded.
   */
  const validityError = (): { message: string; at: number } | undefined => {
    if (!pair) return undefined;
    const leaf = new crypto.X509Certificate(pair.cert);
    const notBefore = Date.parse(leaf.validFrom);
    const notAfter = Date.parse(leaf.validTo);
    const at = now();
    if (at > notAfter)
      return {
        message: `PUBLIC_TLS_CERT: the certificate expired on ${new Date(notAfter).toISOString()}; browsers refuse it. Put a renewed certificate in the file (it is read again when it changes).`,
        at: notAfter,
      };
    if (at < notBefore)
      return {
        message: `PUBLIC_TLS_CERT: the certificate is valid only from ${new Date(notBefore).toISOString()}; browsers refuse it until then (or this PC's clock is wrong).`,
        at,
      };
    return undefined;
  };
  const warnIfInvalid = () => {
    const invalid = validityError();
    if (invalid) logger.warn({ certPath }, invalid.message);
  };

  const reloadSoon = () => {
    clearTimeout(settle);
    settle = setTimeout(reload, SETTLE_MS);
    settle.unref();
  };

  return {
    mode: 'pem-files',
    start() {
      try {
        pair = readPair();
      } catch (error) {
        throw new ConfigError(`PUBLIC_TLS_CERT/PUBLIC_TLS_KEY: ${(error as Error).message}`, { cause: error });
      }
      loadedAt = now();
      warnIfInvalid();
      for (const folder of new Set([path.dirname(certPath), path.dirname(keyPath)])) {
        const watcher = fs.watch(folder, { persistent: false }, reloadSoon);
        watcher.on('error', () => watcher.close());
        watchers.push(watcher);
      }
      for (const file of [certPath, keyPath]) fs.watchFile(file, { persistent: false, interval: POLL_MS }, reloadSoon);
      return Promise.resolve();
    },
    current: () => pair,
    describe: () => describeCertificate(pair?.cert, loadedAt, lastError ?? validityError()),
    onChange: (listener) => void listeners.push(listener),
    close() {
      isClosed = true;
      clearTimeout(settle);
      for (const watcher of watchers) watcher.close();
      for (const file of [certPath, keyPath]) fs.unwatchFile(file, reloadSoon);
    },
  };
}
