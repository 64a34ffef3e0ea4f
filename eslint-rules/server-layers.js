// @ts-check
import fs from 'node:fs';
import path from 'node:path';

/**
 * `layout/server-layers`: which server folder may import which. The table is written once, in
 * docs/decisions.md ("Layout"), and read from there: a row names a layer, its folders and what
 * they may import ("the layers below" = every folder of a layer on an earlier row, "everything",
 * and folder names in backticks). no-restricted-imports cannot do this: it sees neither
 * `import()` nor `require`, and its globs cannot tell `server/api/` from `shared/api/`.
 */
const root = path.resolve(import.meta.dirname, '..');
const serverDir = path.join(root, 'server');
const tablePath = path.join(root, 'docs', 'decisions.md');
const WHERE = 'docs/decisions.md, "Layout"';
/** The entry files right in server/ (index.ts, main.ts, host.ts). */
const ENTRY = '(entry files)';

/** @typedef {{ layer: string, allowed: Set<string> | 'everything' }} FolderRule */

/** @returns {Map<string, FolderRule>} folder → its layer and the folders it may import */
export function readLayoutTable(markdown = fs.readFileSync(tablePath, 'utf8')) {
  const start = markdown.indexOf('\n## Layout\n');
  if (start < 0) throw new Error(`${WHERE}: the section is missing`);
  const end = markdown.indexOf('\n## ', start + 1);
  const rows = markdown
    .slice(start, end < 0 ? undefined : end)
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2)
    .map((line) => line.split('|').map((cell) => cell.trim()));
  const names = (cell) =>
    [...cell.matchAll(/`([^`]+)`/g)].map((match) => (match[1] === 'server/*.ts' ? ENTRY : match[1]));
  /** @type {Map<string, FolderRule>} */
  const rules = new Map();
  const layers = [];
  for (const [, layer, folders, mayImport] of rows) {
    if (!layers.includes(layer)) layers.push(layer);
    const below = [...rules].filter(([, rule]) => layers.indexOf(rule.layer) < layers.indexOf(layer)).map(([f]) => f);
    const allowed = /everything/.test(mayImport)
      ? 'everything'
      : new Set([...(/the layers below/.test(mayImport) ? below : []), ...names(mayImport)]);
    for (const folder of names(folders)) rules.set(folder, { layer, allowed });
  }
  if (rules.size === 0) throw new Error(`${WHERE}: no table rows`);
  return rules;
}

const table = readLayoutTable();

/** The server folder a path is in, or undefined outside server/. */
function folderOf(target, isDirectory) {
  const relative = path.relative(serverDir, target);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  const parts = relative.split(path.sep).filter(Boolean);
  if (parts.length === 0) return isDirectory ? '' : undefined;
  return parts.length > 1 || isDirectory ? parts[0] : ENTRY;
}

const describe = (folder) => (folder === ENTRY ? 'the entry files (server/*.ts)' : `server/${folder}/`);

/** @type {import('eslint').Rule.RuleModule} */
export const serverLayers = {
  meta: {
    type: 'problem',
    docs: { description: `server folders import only what ${WHERE} allows` },
    schema: [],
  },
  create(context) {
    const from = folderOf(context.filename, false);
    if (from === undefined) return {};
    const rule = table.get(from);
    /** createRequire(...)'s results: calling one is a require. */
    const requireNames = new Set(['require']);
    const calls = [];

    /** @param {import('estree').Node} node @param {any} source */
    const check = (node, source) => {
      let specifier;
      let isPrefix = false;
      if (source?.type === 'Literal' && typeof source.value === 'string') specifier = source.value;
      else if (source?.type === 'TemplateLiteral') {
        specifier = source.quasis[0].value.cooked ?? '';
        if (source.expressions.length > 0) {
          isPrefix = true;
          specifier = specifier.slice(0, specifier.lastIndexOf('/') + 1);
        }
      } else if (source?.type === 'TSLiteralType') return check(node, source.literal);
      else if (source) {
        context.report({ node, message: `an import the lint cannot read: write its path as text (${WHERE})` });
        return;
      }
      if (specifier === undefined || !specifier.startsWith('.')) return;
      const to = folderOf(path.resolve(path.dirname(context.filename), specifier), isPrefix);
      if (to === undefined || to === from) return;
      if (to === '') {
        context.report({
          node,
          message: `an import whose folder the lint cannot tell: write the folder out (${WHERE})`,
        });
        return;
      }
      if (!rule) {
        context.report({ node, message: `${describe(from)} has no row in the import table: add one (${WHERE})` });
        return;
      }
      if (rule.allowed === 'everything' || rule.allowed.has(to)) return;
      const target = table.get(to);
      const may =
        [...rule.allowed].map((folder) => (folder === ENTRY ? 'server/*.ts' : folder)).join(', ') || 'only shared/';
      context.report({
        node,
        message: `${describe(from)} (${rule.layer}) may not import ${describe(to)} (${target?.layer ?? 'no row'}). ${from} may import: ${may}. The table: ${WHERE}.`,
      });
    };

    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
      TSImportType: (node) => check(node, node.argument),
      TSExternalModuleReference: (node) => check(node, node.expression),
      VariableDeclarator(node) {
        const init = node.init;
        if (
          init?.type === 'CallExpression' &&
          init.callee.type === 'Identifier' &&
          init.callee.name === 'createRequire'
        )
          if (node.id.type === 'Identifier') requireNames.add(node.id.name);
      },
      CallExpression: (node) => void calls.push(node),
      'Program:exit'() {
        for (const call of calls) {
          const callee = call.callee;
          const isRequire =
            (callee.type === 'Identifier' && requireNames.has(callee.name)) ||
            (callee.type === 'CallExpression' &&
              callee.callee.type === 'Identifier' &&
              callee.callee.name === 'createRequire');
          if (isRequire && call.arguments[0]) check(call, call.arguments[0]);
        }
      },
    };
  },
};

export default { rules: { 'server-layers': serverLayers } };
