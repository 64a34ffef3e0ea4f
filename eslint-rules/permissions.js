// @ts-check

/**
 * `layout/permissions-in-policies`: who may do what is decided in server/policies/ only
 * (docs/decisions.md, "Permissions"). Outside it, these are refused:
 * - reading `.isAdmin` (an Actor's flag; `isAdminTemplate`, `ownerScope` and the `may…` rules
 *   of policies/ say what it means for a decision);
 * - comparing a role: `.permissionTemplate` / `.permission_template` or a role's name
 *   ('CUSTOMER_ADMIN_USER', 'CUSTOMER_USER') in `===`, `!==`, `==`, `!=`, a `switch` or a
 *   `case`, or two in one call (`eq(users.permissionTemplate, 'CUSTOMER_ADMIN_USER')`, the
 *   rule written in SQL) — a comparison with null or undefined asks only whether it was given;
 *   a role field's own methods (`.startsWith(…)`), a lookup by it (`table[user.permissionTemplate]`),
 *   a membership test (`admins.includes(…)`, `.has(…)`, `.indexOf(…)`), and a role's name given
 *   a name of its own or put in a list (`const ADMIN = 'CUSTOMER_ADMIN_USER'`), which would let
 *   a comparison through under that name;
 * - an ownership check: a comparison with `.createdBy`, `.created_by` or `.ownerUserId`, or
 *   with the caller's id (`actor.id`, `….actor.id`, `….owner.id`), also as a membership test.
 * Behaviour is judged by test/integration/access-walk.test.ts; this keeps the decisions where
 * a reader looks for them.
 */
const WHERE = 'docs/decisions.md, "Permissions"';
const ROLES = new Set(['CUSTOMER_ADMIN_USER', 'CUSTOMER_USER']);
const ROLE_FIELDS = new Set(['permissionTemplate', 'permission_template']);
const OWNER_FIELDS = new Set(['createdBy', 'created_by', 'ownerUserId']);
const CALLER_OBJECTS = new Set(['actor', 'owner']);
const COMPARISONS = new Set(['===', '!==', '==', '!=']);
/** Methods that ask whether a value is among others. */
const MEMBERSHIP = new Set(['includes', 'has', 'indexOf', 'lastIndexOf']);

/** A value without TypeScript's wrappers (`x as T`, `x!`). */
const unwrap = (node) =>
  node && ['TSAsExpression', 'TSNonNullExpression', 'TSSatisfiesExpression', 'TSTypeAssertion'].includes(node.type)
    ? unwrap(node.expression)
    : node;

/** `a.b` or `a['b']`: b, when written out. */
function propertyName(node) {
  const member = unwrap(node);
  if (member?.type === 'ChainExpression') return propertyName(member.expression);
  if (member?.type !== 'MemberExpression') return undefined;
  if (!member.computed && member.property.type === 'Identifier') return member.property.name;
  if (member.property.type === 'Literal' && typeof member.property.value === 'string') return member.property.value;
  return undefined;
}

const isRoleName = (node) => {
  const value = unwrap(node);
  return value?.type === 'Literal' && ROLES.has(value.value);
};
const isRole = (node) => ROLE_FIELDS.has(propertyName(node) ?? '') || isRoleName(node);
const isOwnerField = (node) => OWNER_FIELDS.has(propertyName(node) ?? '');
/** `actor.id`, `req.actor.id`, `principal.owner.id`. */
function isCallerId(node) {
  const member = unwrap(node);
  if (propertyName(member) !== 'id') return false;
  const object = unwrap(member.object);
  return (
    (object.type === 'Identifier' && CALLER_OBJECTS.has(object.name)) || CALLER_OBJECTS.has(propertyName(object) ?? '')
  );
}
const isNothing = (node) => {
  const value = unwrap(node);
  return (
    (value?.type === 'Literal' && value.value === null) || (value?.type === 'Identifier' && value.name === 'undefined')
  );
};

/** @type {import('eslint').Rule.RuleModule} */
export const permissionsInPolicies = {
  meta: {
    type: 'problem',
    docs: { description: `permission decisions live in server/policies/ (${WHERE})` },
    schema: [],
  },
  create(context) {
    const report = (node, what) =>
      context.report({
        node,
        message: `${what} outside server/policies/: call a policy there (or add one) instead (${WHERE})`,
      });
    const judge = (node, sides) => {
      if (sides.some(isNothing)) return;
      if (sides.some(isRole)) report(node, 'a role compared');
      else if (sides.some(isOwnerField) || sides.some(isCallerId)) report(node, 'an ownership check');
    };
    return {
      BinaryExpression(node) {
        if (COMPARISONS.has(node.operator)) judge(node, [node.left, node.right]);
      },
      SwitchStatement(node) {
        const cases = node.cases.map((branch) => branch.test).filter(Boolean);
        if (isRole(node.discriminant) || cases.some(isRoleName)) report(node, 'a role compared');
        else if (isOwnerField(node.discriminant) || isCallerId(node.discriminant)) report(node, 'an ownership check');
      },
      CallExpression(node) {
        // The SQL form: eq(users.permissionTemplate, 'CUSTOMER_ADMIN_USER'), eq(t.createdBy, actor.id).
        const args = node.arguments;
        const isMembership = MEMBERSHIP.has(propertyName(node.callee) ?? '');
        if (args.filter(isRole).length >= 2 || (isMembership && args.some(isRole))) report(node, 'a role compared');
        else if (args.some(isOwnerField) && args.some(isCallerId)) report(node, 'an ownership check');
        else if (isMembership && args.some((arg) => isOwnerField(arg) || isCallerId(arg)))
          report(node, 'an ownership check');
      },
      MemberExpression(node) {
        if (propertyName(node) === 'isAdmin') report(node, 'isAdmin read');
        // user.permissionTemplate.startsWith(…), ROLE_TABLE[user.permissionTemplate]
        else if (ROLE_FIELDS.has(propertyName(node.object) ?? '') || (node.computed && isRole(node.property)))
          report(node, 'a role compared');
      },
      Literal(node) {
        // const ADMIN = 'CUSTOMER_ADMIN_USER', ['CUSTOMER_ADMIN_USER', …]: a role under another name.
        const parent = node.parent;
        if (!isRoleName(node)) return;
        if ((parent.type === 'VariableDeclarator' && parent.init === node) || parent.type === 'ArrayExpression')
          report(node, 'a role named');
      },
      Property(node) {
        // const { isAdmin } = actor
        if (node.parent.type === 'ObjectPattern' && !node.computed && node.key.type === 'Identifier')
          if (node.key.name === 'isAdmin') report(node, 'isAdmin read');
      },
    };
  },
};
