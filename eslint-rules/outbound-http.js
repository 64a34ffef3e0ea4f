// @ts-check

/**
 * `layout/outbound-http-in-net`: every outbound HTTP request of the server goes through the one
 * client, server/net/http-client.ts (undici under the outbound address policy, a deadline, a
 * size limit; docs/decisions.md, "Outbound HTTP"). Outside server/net/ these are refused:
 * - an HTTP client library: undici, axios, node-fetch, got, ky, superagent, request;
 * - Node's clients: `request`, `get`, `Agent`, `globalAgent` of node:http or node:https (named,
 *   or on the default or namespace import), and node:http2's `connect`;
 * - the global clients: `fetch` (also as `globalThis.fetch`), XMLHttpRequest, WebSocket, EventSource.
 * Serving (http.createServer, http2.createSecureServer) stays allowed anywhere the layout allows.
 * A whole module used otherwise than by a property written out (`(tls ? https : http).request`,
 * `const { request } = http`, passed on) is refused too: the rule cannot tell what is done with it.
 */
const WHERE = 'go through server/net/http-client.ts (docs/decisions.md, "Outbound HTTP")';
const LIBRARIES = new Set(['undici', 'axios', 'node-fetch', 'got', 'ky', 'superagent', 'request']);
const NODE_CLIENTS = new Map([
  ['http', new Set(['request', 'get', 'Agent', 'globalAgent'])],
  ['https', new Set(['request', 'get', 'Agent', 'globalAgent'])],
  ['http2', new Set(['connect'])],
]);
const GLOBALS = new Set(['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource']);

/** `node:https` → 'https'; a library's subpath (`undici/types`) → the library. */
const moduleOf = (specifier) => specifier.replace(/^node:/, '');
const libraryOf = (specifier) => {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
};

/** `a.b` or `a['b']`: b, when written out. */
function propertyName(member) {
  if (!member.computed && member.property.type === 'Identifier') return member.property.name;
  if (member.property.type === 'Literal' && typeof member.property.value === 'string') return member.property.value;
  return undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
export const outboundHttpInNet = {
  meta: {
    type: 'problem',
    docs: { description: 'outbound HTTP only through server/net/http-client.ts' },
    schema: [],
  },
  create(context) {
    const source = context.sourceCode;
    /** Local names bound to node:http / node:https / node:http2 as a whole: name → module. */
    const wholeModules = new Map();

    /** A module loaded by `specifier` at `node`; `binding` the identifier it is bound to as a whole, if any. */
    const loaded = (node, specifier, binding) => {
      if (typeof specifier !== 'string') return;
      if (LIBRARIES.has(libraryOf(specifier)))
        return context.report({ node, message: `${libraryOf(specifier)} makes outbound HTTP requests: ${WHERE}` });
      const module = moduleOf(specifier);
      if (NODE_CLIENTS.has(module) && binding) wholeModules.set(binding, module);
    };
    const clientOf = (module, name) => NODE_CLIENTS.get(module)?.has(name);

    return {
      ImportDeclaration(node) {
        if (node.importKind === 'type') return;
        const specifier = node.source.value;
        if (typeof specifier !== 'string') return;
        const module = moduleOf(specifier);
        const whole = node.specifiers.find((part) => part.type !== 'ImportSpecifier');
        loaded(node, specifier, whole?.local.name);
        for (const part of node.specifiers) {
          if (part.type !== 'ImportSpecifier' || part.importKind === 'type') continue;
          const imported = part.imported.type === 'Identifier' ? part.imported.name : part.imported.value;
          if (clientOf(module, imported))
            context.report({ node: part, message: `${module}'s ${imported} makes outbound requests: ${WHERE}` });
        }
      },
      'ExportNamedDeclaration, ExportAllDeclaration'(node) {
        const specifier = node.source?.value;
        if (typeof specifier !== 'string' || node.exportKind === 'type') return;
        const module = moduleOf(specifier);
        // `export * from 'node:http'` hands its clients on; `export { request } from …` names one.
        const names = node.type === 'ExportAllDeclaration' ? [...(NODE_CLIENTS.get(module) ?? [])] : [];
        for (const part of node.specifiers ?? [])
          names.push(part.local.type === 'Identifier' ? part.local.name : part.local.value);
        if (names.some((name) => name === 'default' || clientOf(module, name)))
          context.report({ node, message: `${module}'s clients handed on: ${WHERE}` });
        loaded(node, specifier, undefined);
      },
      ImportExpression(node) {
        if (node.source.type === 'Literal') loaded(node, node.source.value, undefined);
      },
      TSImportEqualsDeclaration(node) {
        const reference = node.moduleReference;
        if (reference.type === 'TSExternalModuleReference' && reference.expression.type === 'Literal')
          loaded(node, reference.expression.value, node.id.name);
      },
      CallExpression(node) {
        const [first] = node.arguments;
        if (node.callee.type !== 'Identifier' || node.callee.name !== 'require' || first?.type !== 'Literal') return;
        const parent = node.parent;
        const binding =
          parent.type === 'VariableDeclarator' && parent.id.type === 'Identifier' ? parent.id.name : undefined;
        loaded(node, first.value, binding);
      },
      MemberExpression(node) {
        const name = propertyName(node);
        if (name === undefined || node.object.type !== 'Identifier') return;
        const module = wholeModules.get(node.object.name);
        if (module && clientOf(module, name))
          context.report({ node, message: `${module}.${name} makes outbound requests: ${WHERE}` });
        if (node.object.name === 'globalThis' && GLOBALS.has(name))
          context.report({ node, message: `${name} makes outbound requests: ${WHERE}` });
      },
      Identifier(node) {
        const module = wholeModules.get(node.name);
        if (!module) return;
        const parent = node.parent;
        // Where it is bound (the import, require's variable), or read by a property written out.
        if (['ImportDefaultSpecifier', 'ImportNamespaceSpecifier', 'TSImportEqualsDeclaration'].includes(parent.type))
          return;
        if (parent.type === 'VariableDeclarator' && parent.id === node) return;
        if (parent.type === 'MemberExpression' && parent.object === node && propertyName(parent) !== undefined) return;
        // A type position (`http.IncomingMessage` as a type) carries no request.
        if (parent.type === 'TSQualifiedName') return;
        context.report({
          node,
          message: `${module} used as a whole, where the rule cannot see what it requests: ${WHERE}`,
        });
      },
      'Program:exit'(program) {
        // Global clients used by name: references to the global variable (declared by the
        // config's globals) or left unresolved; a local variable of that name is not one.
        const scope = source.getScope(program);
        const references = [...scope.through];
        for (const name of GLOBALS) references.push(...(scope.set.get(name)?.references ?? []));
        const seen = new Set();
        for (const { identifier } of references) {
          if (seen.has(identifier) || identifier.type !== 'Identifier' || !GLOBALS.has(identifier.name)) continue;
          seen.add(identifier);
          context.report({ node: identifier, message: `${identifier.name} makes outbound requests: ${WHERE}` });
        }
      },
    };
  },
};
