import { escapeHtml, inlineCode } from './html';
import { fieldRows, isList, type FieldRow, type JsonSchema, type OpenApiDocumentLike } from './schema-fields';

/** A value as JSON, except a string holding quotes (a header), which reads better as it is sent. */
const inlineValue = (value: unknown) =>
  `<code>${escapeHtml(typeof value === 'string' && value.includes('"') ? value : JSON.stringify(value))}</code>`;

function rowHtml(row: FieldRow, showRequired: boolean): string {
  const badge = showRequired
    ? row.isRequired
      ? '<span class="badge required">required</span>'
      : '<span class="badge optional">optional</span>'
    : row.isRequired
      ? ''
      : '<span class="badge optional">may be absent</span>';
  const notes = [
    row.description ? `<span>${inlineCode(row.description)}</span>` : '',
    row.values ? `<span class="values">One of ${row.values.map(inlineValue).join(', ')}</span>` : '',
    row.constraints.length > 0 ? `<span class="constraints">${escapeHtml(row.constraints.join('; '))}</span>` : '',
    row.example !== undefined && !row.values ? `<span class="example">Example: ${inlineValue(row.example)}</span>` : '',
  ].join('');
  const type = `${escapeHtml(row.type)}${row.isNullable ? ' or null' : ''}`;
  const depth = row.name.split(/\.|\[\]\./).length - 1;
  return `<tr data-field="${escapeHtml(row.name)}"><td class="name depth-${depth}"><code>${escapeHtml(row.name)}</code>${badge}</td><td class="type">${type}</td><td>${notes}</td></tr>`;
}

/**
 * The table of a body's fields. `dataFor` names the body it shows (`request`, `response-201`,
 * `header`…) so that a reader or a test can find it; request bodies mark required fields.
 */
export function fieldTable(
  document: OpenApiDocumentLike,
  schema: JsonSchema,
  dataFor: string,
  showRequired: boolean,
): string {
  const rows = fieldRows(document, schema);
  if (rows.length === 0) return '';
  const listNote = isList(document, schema)
    ? '<p class="muted">A list (JSON array); each item has these fields:</p>'
    : '';
  return `${listNote}<table class="fields" data-for="${escapeHtml(dataFor)}"><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead><tbody>
${rows.map((row) => rowHtml(row, showRequired)).join('\n')}
</tbody></table>`;
}

export type ParameterLike = { name: string; in: string; required?: boolean; description?: string; schema?: JsonSchema };

/** Parameters (path, query, header) in the same table form, one row each. */
export function parameterTable(
  document: OpenApiDocumentLike,
  parameters: readonly ParameterLike[],
  dataFor: string,
): string {
  if (parameters.length === 0) return '';
  const object: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(
      parameters.map((parameter) => [parameter.name, { description: parameter.description, ...parameter.schema }]),
    ),
    required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
  };
  return fieldTable(document, object, dataFor, true);
}
