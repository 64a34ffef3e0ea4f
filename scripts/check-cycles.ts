import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * `npm run check`: no import cycles between server folders. A folder is the first folder under
 * server/ (server/webhooks/…); the entry files left in server/ (index, main, host) count as one more. An import
 * counts when it runs: `import type` and type-only specifiers load nothing, so they bind no order.
 * Prints each cycle with one import per edge and exits 1 when there is one. An argument names
 * another folder to check (the layout test checks a fixture with it).
 */
const serverDir = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..', 'server'));

function listSources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : listSources(full);
    return /\.(ts|mts)$/.test(entry.name) ? [full] : [];
  });
}

const folderOf = (file: string) => path.relative(serverDir, file).split(path.sep).slice(0, -1)[0] ?? '(root)';

/**
 * The fixed text of a specifier: a string, or a template literal's start up to its last `/`
 * before the first `${}` (`../signing/${name}` reaches server/signing/ whatever the name).
 */
function specifierText(node: ts.Node | undefined): string | undefined {
  if (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))) return node.text;
  if (node && ts.isTemplateExpression(node)) return node.head.text.slice(0, node.head.text.lastIndexOf('/') + 1);
  return undefined;
}

/** The relative specifiers a file imports at run time (static, dynamic, re-exports and require). */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const specifiers: string[] = [];
  /** `require` and what createRequire(...) made: calling one loads a module. */
  const requireNames = new Set(['require']);
  const push = (node: ts.Node | undefined) => {
    const text = specifierText(node);
    if (text !== undefined) specifiers.push(text);
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly) {
      const bindings = node.importClause?.namedBindings;
      const onlyTypes =
        bindings &&
        ts.isNamedImports(bindings) &&
        !node.importClause?.name &&
        bindings.elements.length > 0 &&
        bindings.elements.every((element) => element.isTypeOnly);
      if (!onlyTypes) push(node.moduleSpecifier);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && !node.isTypeOnly) {
      push(node.moduleSpecifier);
    } else if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.initializer &&
      ts.isCallExpression(node.initializer) &&
      ts.isIdentifier(node.initializer.expression) &&
      node.initializer.expression.text === 'createRequire'
    ) {
      requireNames.add(node.name.text);
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const isImport = callee.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire =
        (ts.isIdentifier(callee) && requireNames.has(callee.text)) ||
        (ts.isCallExpression(callee) &&
          ts.isIdentifier(callee.expression) &&
          callee.expression.text === 'createRequire');
      if (isImport || isRequire) push(node.arguments[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers.filter((specifier) => specifier.startsWith('.'));
}

/** folder → folder → one example import, for the message. */
const edges = new Map<string, Map<string, string>>();
const sources = listSources(serverDir);
for (const file of sources) {
  for (const specifier of runtimeImports(file)) {
    // A template's fixed start names a folder, not a file: `x` stands for the rest.
    const target = path.resolve(path.dirname(file), specifier.endsWith('/') ? `${specifier}x` : specifier);
    if (!target.startsWith(serverDir + path.sep)) continue;
    const from = folderOf(file);
    const to = folderOf(target);
    if (from === to) continue;
    const out = edges.get(from) ?? new Map<string, string>();
    if (!out.has(to)) out.set(to, `${path.relative(serverDir, file)} imports ${specifier}`);
    edges.set(from, out);
  }
}

/** Strongly connected components of more than one folder (Tarjan). */
function findCycles(): string[][] {
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

const cycles = findCycles();
for (const cycle of cycles) {
  console.error(`server folders import each other: ${cycle.join(', ')}`);
  for (const from of cycle)
    for (const [to, example] of edges.get(from) ?? [])
      if (cycle.includes(to)) console.error(`  ${from} → ${to}: ${example}`);
}
if (cycles.length > 0) process.exit(1);
console.log(`no cycles between ${new Set(sources.map(folderOf)).size} server folders (the entry files count as one)`);
