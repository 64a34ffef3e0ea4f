// @ts-check
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

/** Node's module loader: `createRequire` comes from here, under whatever name it is imported. */
const MODULE_PACKAGES = new Set(['module', 'node:module']);
/** Node's loader functions besides require and createRequire: `register` loads a hooks module, `_load` a module. */
const LOADING_MEMBERS = new Set(['register', '_load']);
const CANNOT_READ = `an import the lint cannot read: call import() or require with its path as text, or a template whose fixed start names the folder (${WHERE})`;

/** The name of a member expression's property when it is written out (`a.b`, `a['b']`), else undefined. */
function propertyName(member) {
  if (member.type !== 'MemberExpression') return undefined;
  if (!member.computed && member.property.type === 'Identifier') return member.property.name;
  if (member.property.type === 'Literal' && typeof member.property.value === 'string') return member.property.value;
  return undefined;
}

/** TypeScript's wrappers of a value (`x as T`, `x!`, `x satisfies T`, `<T>x`): the value is still used. */
const TS_VALUE_WRAPPERS = new Set([
  'TSAsExpression',
  'TSNonNullExpression',
  'TSSatisfiesExpression',
  'TSTypeAssertion',
  'TSInstantiationExpression',
]);
/** A callee without its TypeScript wrappers: `(require as Loader)('…')` calls require. */
const unwrap = (node) => (TS_VALUE_WRAPPERS.has(node.type) ? unwrap(node.expression) : node);

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
    /** Local names of Node's `createRequire` (`import { createRequire as makeRequire } from 'node:module'`). */
    const createRequireNames = new Set(['createRequire']);
    /** Names that load a module when called: `require` and what a createRequire call was given to. */
    const requireNames = new Set(['require']);
    /** Names of Node's module object: CommonJS's `module`, and `node:module` imported whole or as `Module`. */
    const moduleNames = new Set(['module']);
    const isModuleObject = (node) => {
      const object = unwrap(node);
      return (
        (object.type === 'Identifier' && moduleNames.has(object.name)) ||
        (propertyName(object) === 'prototype' && isModuleObject(object.object))
      );
    };
    const calls = [];
    const identifiers = [];
    const members = [];

    const cannotRead = (node) => context.report({ node, message: CANNOT_READ });

    /** @param {import('estree').Node} node @param {any} source */
    const check = (node, source) => {
      let specifier;
      let isPrefix = false;
      if (source?.type === 'Literal' && typeof source.value === 'string') specifier = source.value;
      else if (source?.type === 'TemplateLiteral') {
        specifier = source.quasis[0].value.cooked ?? '';
        if (source.expressions.length > 0) {
          // Only the text before the first `${}` is known: up to its last `/`, a folder. A start
          // that is an expression or names no folder (`${up}/signing/…`, `..${sep}signing`) is unread.
          isPrefix = true;
          specifier = specifier.slice(0, specifier.lastIndexOf('/') + 1);
          if (specifier === '') {
            cannotRead(node);
            return;
          }
        }
      } else if (source?.type === 'TSLiteralType') return check(node, source.literal);
      else {
        cannotRead(node);
        return;
      }
      let target;
      if (specifier.startsWith('.')) target = path.resolve(path.dirname(context.filename), specifier);
      else if (specifier.startsWith('/')) target = path.resolve(specifier);
      else if (specifier.startsWith('file:')) {
        try {
          target = fileURLToPath(specifier);
        } catch {
          cannotRead(node);
          return;
        }
      } else return;
      // A prefix above server/ (`../../${name}`) may reach any folder of it.
      if (isPrefix && !path.relative(target, serverDir).startsWith('..')) {
        context.report({
          node,
          message: `an import whose folder the lint cannot tell: write the folder out (${WHERE})`,
        });
        return;
      }
      const to = folderOf(target, isPrefix);
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
      const toRule = table.get(to);
      const may =
        [...rule.allowed].map((folder) => (folder === ENTRY ? 'server/*.ts' : folder)).join(', ') || 'only shared/';
      context.report({
        node,
        message: `${describe(from)} (${rule.layer}) may not import ${describe(to)} (${toRule?.layer ?? 'no row'}). ${from} may import: ${may}. The table: ${WHERE}.`,
      });
    };

    /** `createRequire(…)`, `makeRequire(…)` (an alias), `module.createRequire(…)`. */
    const isCreateRequire = (node) => {
      const callee = unwrap(node);
      return (
        (callee.type === 'Identifier' && createRequireNames.has(callee.name)) ||
        propertyName(callee) === 'createRequire'
      );
    };
    /** What loads a module when called: `require`, a name given createRequire's result, `x.require`, `createRequire(…)`. */
    const isRequire = (node) => {
      const callee = unwrap(node);
      return (
        (callee.type === 'Identifier' && requireNames.has(callee.name)) ||
        propertyName(callee) === 'require' ||
        (callee.type === 'MemberExpression' &&
          isModuleObject(callee.object) &&
          LOADING_MEMBERS.has(propertyName(callee) ?? '')) ||
        (callee.type === 'CallExpression' && isCreateRequire(callee.callee))
      );
    };

    /**
     * A loader that is not called where it is named (passed on, bound, stored, aliased) loads
     * paths the lint never sees: unread. `require.resolve` and `typeof require` load nothing.
     */
    const isHarmlessUse = (node) => {
      const parent = node.parent;
      if (parent.type === 'CallExpression' && parent.callee === node) return true;
      if (parent.type === 'ChainExpression' || TS_VALUE_WRAPPERS.has(parent.type)) return isHarmlessUse(parent);
      if (parent.type === 'MemberExpression' && parent.object === node && propertyName(parent) === 'resolve')
        return true;
      if (parent.type === 'UnaryExpression' && parent.operator === 'typeof') return true;
      // `const load = createRequire(import.meta.url)`: its calls are checked as requires.
      return false;
    };

    return {
      ImportDeclaration(node) {
        check(node, node.source);
        if (!MODULE_PACKAGES.has(node.source.value)) return;
        for (const specifier of node.specifiers) {
          const imported =
            specifier.type === 'ImportSpecifier' ? (specifier.imported.name ?? specifier.imported.value) : 'default';
          if (imported === 'createRequire') createRequireNames.add(specifier.local.name);
          else if (LOADING_MEMBERS.has(imported)) requireNames.add(specifier.local.name);
          else if (imported === 'default' || imported === 'Module') moduleNames.add(specifier.local.name);
        }
      },
      // Re-exporting Node's loader hands it on under names this file never sees.
      ExportNamedDeclaration: (node) =>
        node.source && (MODULE_PACKAGES.has(node.source.value) ? cannotRead(node) : check(node, node.source)),
      ExportAllDeclaration: (node) =>
        MODULE_PACKAGES.has(node.source.value) ? cannotRead(node) : check(node, node.source),
      // `const { require: load } = module`: a loader given a name the lint does not follow.
      'ObjectPattern > Property'(node) {
        const key = node.computed ? undefined : (node.key.name ?? node.key.value);
        if (key === 'require' || LOADING_MEMBERS.has(key)) cannotRead(node);
      },
      ImportExpression: (node) => check(node, node.source),
      TSImportType: (node) => check(node, node.argument),
      TSExternalModuleReference: (node) => check(node, node.expression),
      VariableDeclarator(node) {
        const init = node.init;
        if (init?.type === 'CallExpression' && isCreateRequire(init.callee) && node.id.type === 'Identifier')
          requireNames.add(node.id.name);
        // `const { createRequire: make } = module`
        if (node.id.type === 'ObjectPattern')
          for (const property of node.id.properties)
            if (
              property.type === 'Property' &&
              property.value.type === 'Identifier' &&
              (property.key.name ?? property.key.value) === 'createRequire'
            )
              createRequireNames.add(property.value.name);
      },
      CallExpression: (node) => void calls.push(node),
      Identifier: (node) => void identifiers.push(node),
      MemberExpression: (node) => void members.push(node),
      'Program:exit'() {
        for (const call of calls) {
          if (!isRequire(call.callee)) continue;
          const argument = call.arguments[0];
          if (!argument || argument.type === 'SpreadElement') cannotRead(call);
          else check(call, argument);
        }
        for (const node of identifiers) {
          const parent = node.parent;
          const isReference =
            !(parent.type === 'MemberExpression' && parent.property === node && !parent.computed) &&
            !(parent.type === 'Property' && parent.key === node && !parent.shorthand) &&
            !(parent.type === 'VariableDeclarator' && parent.id === node) &&
            !parent.type.startsWith('Import') &&
            !(parent.type.startsWith('TS') && !TS_VALUE_WRAPPERS.has(parent.type)) &&
            !(parent.type === 'Property' && parent.parent.type === 'ObjectPattern');
          if (!isReference) continue;
          const isLoader = requireNames.has(node.name) || createRequireNames.has(node.name);
          if (isLoader && !isHarmlessUse(node)) cannotRead(node);
        }
        for (const member of members) {
          const name = propertyName(member);
          if ((name === 'require' || name === 'createRequire') && !isHarmlessUse(member)) cannotRead(member);
          // On Node's module object: a loader not called where named, or a member chosen at run time.
          else if (isModuleObject(member.object))
            if ((LOADING_MEMBERS.has(name ?? '') && !isHarmlessUse(member)) || name === undefined) cannotRead(member);
        }
        // createRequire(…) given to anything but a name (or called at once) loads unseen paths.
        for (const call of calls) {
          if (!isCreateRequire(call.callee)) continue;
          const parent = call.parent;
          const isNamed =
            parent.type === 'VariableDeclarator' && parent.init === call && parent.id.type === 'Identifier';
          const isCalled = parent.type === 'CallExpression' && unwrap(parent.callee) === call;
          if (!isNamed && !isCalled) cannotRead(call);
        }
      },
    };
  },
};

export default { rules: { 'server-layers': serverLayers } };
