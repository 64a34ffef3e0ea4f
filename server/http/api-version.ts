import type { RequestHandler } from 'express';
import { API_VERSION } from '../../shared/constants';
import { AppError } from '../core/errors';

/** `Accept-Api-Version`: required integer; 1 is this interface. */
export function requireApiVersion(): RequestHandler {
  return (req, _res, next) => {
    const value = req.headers['accept-api-version'];
    if (typeof value !== 'string' || !/^\s*\d{1,9}\s*$/.test(value)) {
      next(new AppError('api-version-missing', 'Send the header Accept-Api-Version: 1.'));
      return;
    }
    if (Number(value) !== API_VERSION) {
      next(
        new AppError(
          'api-version-unsupported',
          `API version ${Number(value)} is not served here; this service speaks version 1.`,
        ),
      );
      return;
    }
    next();
  };
}
