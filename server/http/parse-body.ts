import express, { type RequestHandler } from 'express';
import { MAX_JSON_BODY_BYTES } from '../../shared/constants';

/**
 * JSON and form bodies for the methods that carry them. GET and DELETE skip the parsers
 * entirely, which keeps reads cheap; binary bodies are read by their own routes.
 */
export function parseStructuredBody(): RequestHandler {
  const json = express.json({ limit: MAX_JSON_BODY_BYTES, type: 'application/json' });
  const form = express.urlencoded({ extended: false, limit: MAX_JSON_BODY_BYTES, parameterLimit: 200 });
  return (req, res, next) => {
    if (req.method !== 'POST' && req.method !== 'PUT' && req.method !== 'PATCH') {
      next();
      return;
    }
    json(req, res, (err?: unknown) => (err ? next(err) : form(req, res, next)));
  };
}
