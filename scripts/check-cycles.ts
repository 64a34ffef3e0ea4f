import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

/**
 * `npm run check`: no import cycles between server folders. A folder is the first folder under
 * server/ (server/webhooks/…); the entry files left in server/ (index, main, host) count as one
 * more. An import counts when it runs: `import type` and type-only specifiers load nothing, so
 * they bind no order. Every other way to load a module counts: static, `export … from`,
 * `import x = require()`, `import()` (a template by its fixed start, which must name a folder),
 * `require`, `x.require`, and what `createRequire` (under any name, or `module.createRequire`)
 * made, Node's `register` (a hooks module) and `Module._load`. A loader whose path cannot be read (an expression, a template that starts with one, a
 * loader passed on or stored) is an error too, as in the lint (eslint-rules/server-layers.js),
 * and under the lint's own waiver (`eslint-disable-next-line layout/server-layers`) it is let be.
 * Plain JavaScript files (.js, .mjs, .cjs) are read as well as TypeScript.
 * Prints each cycle with one import per edge and exits 1 when there is one. An argument names
 * another folder to check (the layout test checks fixtures with it, or calls checkCycles).
 */

export type CycleReport = {
  /** Groups of folders that import each other at run time, each sorted. */
  cycles: string[][];
  /** folder → folder → one example import, for the message. */
  edges: Map<string, Map<string, string>>;
  /** `file:line: text` of every load whose path cannot be read. */
  unread: string[];
  folders: number;
};

const MODULE_PACKAGES = new Set(['module', 'node:module']);
/** Node's loader functions besides require and createRequire: `register` loads a hooks module, `_load` a module. */
const LOADING_MEMBERS = new Set(['register', '_load']);

function listSources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : listSources(full);
    // TypeScript and plain JavaScript (a worker's .mjs entry loads modules too).
    return /\.(ts|mts|cts|js|mjs|cjs)$/.test(entry.name) ? [full] : [];
  });
}

/** A value without TypeScript's wrappers and parentheses: `(require as Loader)` is require. */
function unwrap(node: ts.Node): ts.Node {
  if (
    ts.isParenthesizedExpression(node) ||
    ts.isAsExpression(node) ||
    ts.isNonNullExpression(node) ||
    ts.isSatisfiesExpression(node) ||
    ts.isTypeAssertionExpression(node)
  )
    return unwrap(node.expression);
  return node;
}

/** The node a value's wrappers end in (the parent that uses it). */
function userOf(node: ts.Node): { user: ts.Node; value: ts.Node } {
  let value = node;
  while (value.parent && unwrap(value.parent) === unwrap(node)) value = value.parent;
  return { user: value.parent, value };
}

/** `a.b`, `a['b']`: the property's name when written out. */
function propertyName(node: ts.Node): string | undefined {
  if (ts.isPropertyAccessExpression(node)) return node.name.text;
  if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression))
    return node.argumentExpression.text;
  return undefined;
}

type Read = { kind: 'path'; text: string; isPrefix: boolean } | { kind: 'package' } | { kind: 'unread' };

/** The fixed text of a specifier: a string, or a template's start up to its last `/`. */
function readSpecifier(node: ts.Node | undefined): Read {
  if (node && ts.isStringLiteralLike(node)) {
    return /^(\.|\/|file:)/.test(node.text) ? { kind: 'path', text: node.text, isPrefix: false } : { kind: 'package' };
  }
  if (node && ts.isTemplateExpression(node)) {
    const text = node.head.text.slice(0, node.head.text.lastIndexOf('/') + 1);
    if (text === '') return { kind: 'unread' };
    return /^(\.|\/|file:)/.test(text) ? { kind: 'path', text, isPrefix: true } : { kind: 'package' };
  }
  return { kind: 'unread' };
}

/** The relative or absolute paths a file loads at run time, and the loads it cannot read. */
function runtimeImports(
  file: string,
  label: string,
): { specifiers: Array<{ text: string; isPrefix: boolean }>; unread: string[] } {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const specifiers: Array<{ text: string; isPrefix: boolean }> = [];
  const unread: string[] = [];
  const createRequireNames = new Set(['createRequire']);
  const requireNames = new Set(['require']);
  /** Names of Node's module object: CommonJS's `module`, and `node:module` imported whole or as `Module`. */
  const moduleNames = new Set(['module']);
  const isModuleObject = (node: ts.Node): boolean => {
    const object = unwrap(node);
    if (ts.isIdentifier(object)) return moduleNames.has(object.text);
    return (
      (ts.isPropertyAccessExpression(object) || ts.isElementAccessExpression(object)) &&
      propertyName(object) === 'prototype' &&
      isModuleObject(object.expression)
    );
  };
  /** `module[key]`, `Module._load`, `module.register`: on the module object, a loader or a member chosen at run time. */
  const moduleMember = (node: ts.Node) =>
    (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) && isModuleObject(node.expression)
      ? (propertyName(node) ?? '(computed)')
      : undefined;
  const where = (node: ts.Node) =>
    `${label}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}: ${node.getText(source).slice(0, 80)}`;
  const lines = source.text.split('\n');
  /** A load the lint's own waiver stands over (`// eslint-disable-next-line layout/server-layers -- why`) is let be here too. */
  const markUnread = (node: ts.Node) => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
    if (!/eslint-disable-next-line\s+layout\/server-layers\b/.test(lines[line - 1] ?? '')) unread.push(where(node));
  };
  const push = (node: ts.Node, specifier: ts.Node | undefined) => {
    const read = readSpecifier(specifier);
    if (read.kind === 'unread') markUnread(node);
    else if (read.kind === 'path') specifiers.push({ text: read.text, isPrefix: read.isPrefix });
  };
  const isCreateRequire = (node: ts.Node) => {
    const callee = unwrap(node);
    return (ts.isIdentifier(callee) && createRequireNames.has(callee.text)) || propertyName(callee) === 'createRequire';
  };
  const isRequire = (node: ts.Node) => {
    const callee = unwrap(node);
    return (
      (ts.isIdentifier(callee) && requireNames.has(callee.text)) ||
      propertyName(callee) === 'require' ||
      LOADING_MEMBERS.has(moduleMember(callee) ?? '') ||
      (ts.isCallExpression(callee) && isCreateRequire(callee.expression))
    );
  };
  /** A loader used otherwise than called (stored, passed, bound) loads what nobody reads. */
  const isHarmlessUse = (node: ts.Node) => {
    const { user, value } = userOf(node);
    if (ts.isCallExpression(user) && user.expression === value) return true;
    if (ts.isTypeOfExpression(user)) return true;
    return ts.isPropertyAccessExpression(user) && user.expression === value && user.name.text === 'resolve';
  };

  // First the names: `createRequire as make`, `const load = createRequire(…)`, wherever they stand.
  const collect = (node: ts.Node) => {
    if (
      ts.isImportDeclaration(node) &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      MODULE_PACKAGES.has(node.moduleSpecifier.text)
    ) {
      const bindings = node.importClause?.namedBindings;
      if (node.importClause?.name) moduleNames.add(node.importClause.name.text);
      if (bindings && ts.isNamespaceImport(bindings)) moduleNames.add(bindings.name.text);
      if (bindings && ts.isNamedImports(bindings))
        for (const element of bindings.elements) {
          const imported = (element.propertyName ?? element.name).text;
          if (imported === 'createRequire') createRequireNames.add(element.name.text);
          else if (LOADING_MEMBERS.has(imported)) requireNames.add(element.name.text);
          else if (imported === 'default' || imported === 'Module') moduleNames.add(element.name.text);
        }
    }
    if (ts.isVariableDeclaration(node) && node.initializer) {
      const init = unwrap(node.initializer);
      if (ts.isIdentifier(node.name) && ts.isCallExpression(init) && isCreateRequire(init.expression))
        requireNames.add(node.name.text);
      if (ts.isObjectBindingPattern(node.name))
        for (const element of node.name.elements)
          if (
            ts.isIdentifier(element.name) &&
            ((element.propertyName && ts.isIdentifier(element.propertyName) ? element.propertyName.text : undefined) ??
              element.name.text) === 'createRequire'
          )
            createRequireNames.add(element.name.text);
    }
    ts.forEachChild(node, collect);
  };
  collect(source);

  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly) {
      const bindings = node.importClause?.namedBindings;
      const onlyTypes =
        bindings &&
        ts.isNamedImports(bindings) &&
        !node.importClause?.name &&
        bindings.elements.length > 0 &&
        bindings.elements.every((element) => element.isTypeOnly);
      if (!onlyTypes) push(node, node.moduleSpecifier);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && !node.isTypeOnly) {
      // Re-exporting Node's loader hands it on under names no reader follows.
      if (ts.isStringLiteral(node.moduleSpecifier) && MODULE_PACKAGES.has(node.moduleSpecifier.text)) markUnread(node);
      else push(node, node.moduleSpecifier);
    } else if (ts.isBindingElement(node)) {
      // `const { require: load } = module`: a loader given a name the check does not follow.
      const key = node.propertyName ?? node.name;
      if (ts.isIdentifier(key) && (key.text === 'require' || LOADING_MEMBERS.has(key.text))) markUnread(node);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      !node.isTypeOnly &&
      ts.isExternalModuleReference(node.moduleReference)
    ) {
      push(node, node.moduleReference.expression);
    } else if (ts.isCallExpression(node)) {
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword || isRequire(node.expression)) {
        const argument = node.arguments[0];
        push(node, argument && !ts.isSpreadElement(argument) ? argument : undefined);
      }
      if (isCreateRequire(node.expression)) {
        const { user, value } = userOf(node);
        const isNamed = ts.isVariableDeclaration(user) && ts.isIdentifier(user.name);
        const isCalled = ts.isCallExpression(user) && user.expression === value;
        if (!isNamed && !isCalled) markUnread(node);
      }
    } else if (ts.isIdentifier(node) && (requireNames.has(node.text) || createRequireNames.has(node.text))) {
      const parent = node.parent;
      const isName = (parent as { name?: ts.Node }).name === node && !ts.isShorthandPropertyAssignment(parent);
      const isType = ts.isTypeNode(parent) || ts.isQualifiedName(parent) || ts.isExpressionWithTypeArguments(parent);
      const isPropertyKey =
        (ts.isBindingElement(parent) && parent.propertyName === node) ||
        ts.isImportSpecifier(parent) ||
        ts.isImportClause(parent) ||
        ts.isNamespaceImport(parent);
      if (!isName && !isType && !isPropertyKey && !isHarmlessUse(node)) markUnread(node);
    } else if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
      const name = propertyName(node);
      const onModule = moduleMember(node);
      if ((name === 'require' || name === 'createRequire') && !isHarmlessUse(node)) markUnread(node);
      else if ((LOADING_MEMBERS.has(onModule ?? '') && !isHarmlessUse(node)) || onModule === '(computed)')
        markUnread(node);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { specifiers, unread };
}

/** Reads every import between the folders of `serverDir` and finds the cycles. */
export function checkCycles(serverDir: string): CycleReport {
  const folderOf = (file: string) => path.relative(serverDir, file).split(path.sep).slice(0, -1)[0] ?? '(root)';
  const edges = new Map<string, Map<string, string>>();
  const unread: string[] = [];
  const sources = listSources(serverDir);
  for (const file of sources) {
    const found = runtimeImports(file, path.relative(serverDir, file));
    unread.push(...found.unread);
    for (const { text, isPrefix } of found.specifiers) {
      let target = text.startsWith('file:') ? fileURLToPath(text) : path.resolve(path.dirname(file), text);
      if (isPrefix) {
        // A fixed start above a folder (`../${name}`, `../../${name}`) may reach any folder.
        if (!path.relative(target, serverDir).startsWith('..')) {
          unread.push(`${path.relative(serverDir, file)}: a template whose folder cannot be told: ${text}…`);
          continue;
        }
        // It names a folder, not a file: `x` stands for the rest.
        target = path.join(target, 'x');
      }
      if (!target.startsWith(serverDir + path.sep)) continue;
      const from = folderOf(file);
      const to = folderOf(target);
      if (from === to) continue;
      const out = edges.get(from) ?? new Map<string, string>();
      if (!out.has(to)) out.set(to, `${path.relative(serverDir, file)} imports ${text}`);
      edges.set(from, out);
    }
  }
  return { cycles: findCycles(edges), edges, unread, folders: new Set(sources.map(folderOf)).size };
}

/** Strongly connected components of more than one folder (Tarjan). */
function findCycles(edges: Map<string, Map<string, string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const connect = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    for (const next of edges.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      component.push(member);
    } while (member !== node);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) connect(node);
  return cycles;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const serverDir = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..', 'server'));
  const report = checkCycles(serverDir);
  for (const line of report.unread) console.error(`an import the cycle check cannot read: ${line}`);
  for (const cycle of report.cycles) {
    console.error(`server folders import each other: ${cycle.join(', ')}`);
    for (const from of cycle)
      for (const [to, example] of report.edges.get(from) ?? [])
        if (cycle.includes(to)) console.error(`  ${from} → ${to}: ${example}`);
  }
  if (report.cycles.length > 0 || report.unread.length > 0) process.exit(1);
  console.log(`no cycles between ${report.folders} server folders (the entry files count as one)`);
}
