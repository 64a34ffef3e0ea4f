import fs from 'node:fs';
import path from 'node:path';
import express, { type RequestHandler, type Router } from 'express';
import type { AppContext } from '../context/app-context';
import { buildOpenApiDocument } from '../http/openapi';
import type { AnyRoute } from '../http/route';
import { htmlSecurityHeaders } from '../http/security-headers';
import { APP_VERSION } from '../core/version';
import { SCRIPT } from './html';
import { renderEmbedding } from './embedding';
import { renderIndex, renderPostingData } from './render-apidoc';
import type { ApiDocument } from './render-operation';
import { RECEIVER_FILES, type Receivers } from './render-webhooks';
import { STYLE } from './style';
import { compressible, sendCompressed, type CompressibleText } from './send-compressed';

const documentHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', 'no-store');
  next();
};

function readReceivers(examplesDir: string): Receivers {
  const read = (name: string) => {
    try {
      return fs.readFileSync(path.join(examplesDir, name), 'utf8');
    } catch {
      return `// ${name} is not installed with this server (expected in ${examplesDir}).`;
    }
  };
  return { node: read(RECEIVER_FILES.node), python: read(RECEIVER_FILES.python) };
}

/**
 * The public documents: /api/openapi.json (no token, no version header: it is documentation)
 * and the human-readable docs made from it under /apidoc/v1/, with the receivers as files.
 * Each is made once per base URL (an admin may change it in the settings).
 */
export function apidocPages(ctx: AppContext, routes: readonly AnyRoute[], examplesDir: string): Router {
  let made:
    | {
        baseUrl: string;
        json: string;
        jsonDoc: CompressibleText;
        index?: CompressibleText;
        postingData?: CompressibleText;
      }
    | undefined;
  const current = () => {
    const baseUrl = ctx.baseUrl();
    if (made?.baseUrl !== baseUrl) {
      const json = JSON.stringify(buildOpenApiDocument(routes, baseUrl, APP_VERSION));
      made = { baseUrl, json, jsonDoc: compressible(json) };
    }
    return made;
  };
  const document = () => JSON.parse(current().json) as ApiDocument;

  const router = express.Router();
  router.get('/api/openapi.json', documentHeaders, (req, res) =>
    sendCompressed(req, res, 'application/json', current().jsonDoc),
  );
  router.get(['/apidoc', '/apidoc/v1'], (req, res, next) => {
    if (req.originalUrl.split('?')[0] === '/apidoc/v1/') return next();
    res.redirect(301, '/apidoc/v1/');
  });

  const docs = express.Router({ strict: true });
  docs.get('/style.css', (_req, res) => void res.type('text/css').send(STYLE));
  docs.get('/apidoc.js', (_req, res) => void res.type('text/javascript').send(SCRIPT));
  docs.get('/posting_data', (req, res) => {
    const made = current();
    made.postingData ??= compressible(renderPostingData(document()));
    sendCompressed(req, res, 'html', made.postingData);
  });
  docs.get('/embedding', (_req, res) => void res.type('html').send(renderEmbedding()));
  docs.get('/', (req, res) => {
    const made = current();
    made.index ??= compressible(renderIndex(document(), made.baseUrl, readReceivers(examplesDir)));
    sendCompressed(req, res, 'html', made.index);
  });
  for (const name of Object.values(RECEIVER_FILES)) {
    docs.get(`/examples/${name}`, (_req, res, next) => {
      const file = path.join(examplesDir, name);
      if (!fs.existsSync(file)) return next();
      res.type('text/plain; charset=utf-8').setHeader('Content-Disposition', `attachment; filename="${name}"`);
      res.send(fs.readFileSync(file));
    });
  }
  router.use('/apidoc/v1', htmlSecurityHeaders(), docs);
  return router;
}
