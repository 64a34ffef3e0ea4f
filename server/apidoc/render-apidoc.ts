import { PROBLEM_ANCHORS, PROBLEMS } from '../../shared/api/problems';
import { fieldTable } from './field-table';
import { escapeHtml, inlineCode, page, type TocEntry } from './html';
import { renderConventions, renderIntro, renderQuickStart } from './render-guide';
import { renderRecipes } from './render-recipes';
import { componentSchema, renderOperation, type ApiDocument, type Operation } from './render-operation';
import { eventAnchorOf, renderWebhooks, type Receivers } from './render-webhooks';

/** Resources in the order an integrator meets them; tags not listed follow in document order. */
const TAG_ORDER = [
  'Contracts',
  'Contract parties',
  'Contract annotations',
  'Contract attachments',
  'Contract templates',
  'Webhook consumers',
  'Users',
  'Partner',
  'Outbox',
  'Settings',
  'Admin session',
];

type Entry = { method: string; path: string; operation: Operation };

const tagAnchor = (tag: string) => `tag-${tag.replace(/\W+/g, '-')}`;

/** A summary's first clause, short enough for the table of contents. */
const shortLabel = (summary: string) => summary.split(/[;(]|, or /)[0]?.trim() ?? summary;

function groupByTag(document: ApiDocument): Map<string, Entry[]> {
  const groups = new Map<string, Entry[]>(TAG_ORDER.map((tag) => [tag, []]));
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const tag = operation.tags?.[0] ?? 'Other';
      groups.set(tag, [...(groups.get(tag) ?? []), { method, path, operation }]);
    }
  }
  for (const [tag, entries] of groups) if (entries.length === 0) groups.delete(tag);
  return groups;
}

function tableOfContents(groups: Map<string, Entry[]>, document: ApiDocument): TocEntry[] {
  return [
    { href: '#quick-start', label: 'Quick start' },
    { href: '#recipes', label: 'Recipes for integrations' },
    {
      href: '#conventions',
      label: 'Conventions',
      children: [
        { href: '#authentication', label: 'Authentication and versions' },
        { href: '#requests', label: 'Requests' },
        { href: '#responses', label: 'Responses and resources' },
        { href: '#pagination', label: 'Pagination' },
        { href: '#rate-limit', label: 'Rate limit' },
        { href: '#plan-limits', label: "The office's plan" },
        { href: '#problem-responses', label: 'Problem responses' },
      ],
    },
    ...[...groups].map(([tag, entries]) => ({
      href: `#${tagAnchor(tag)}`,
      label: tag,
      children: entries.map(({ operation }) => ({
        href: `#${operation.operationId}`,
        label: shortLabel(operation.summary ?? operation.operationId),
      })),
    })),
    {
      href: '#webhooks',
      label: 'Webhooks',
      children: [
        ...Object.keys(document.webhooks ?? {}).map((type) => ({
          href: `#${eventAnchorOf(type)}`,
          label: `\`${type}\``,
        })),
        { href: '#webhook-headers', label: 'The request' },
        { href: '#webhook-delivery', label: 'Delivery and retries' },
        { href: '#verifying', label: 'Verifying an event' },
        { href: '#receivers', label: 'Receivers (Node.js, Python)' },
      ],
    },
    { href: '/apidoc/v1/posting_data', label: 'Errors' },
  ];
}

/** /apidoc/v1/: the guide and the reference of every endpoint and event, from the OpenAPI document. */
export function renderIndex(document: ApiDocument, baseUrl: string, receivers: Receivers): string {
  const groups = groupByTag(document);
  const reference = [...groups]
    .map(
      ([tag, entries]) =>
        `<section id="${tagAnchor(tag)}" class="tag"><h2>${escapeHtml(tag)}</h2>\n${entries
          .map(({ method, path, operation }) => renderOperation(document, method, path, operation))
          .join('\n')}</section>`,
    )
    .join('\n');
  const body = [
    renderIntro(document, baseUrl),
    renderQuickStart(document, baseUrl),
    renderRecipes(),
    renderConventions(document),
    reference,
    renderWebhooks(document, receivers),
  ].join('\n');
  return page('Guide and reference', body, tableOfContents(groups, document));
}

/** /apidoc/v1/posting_data: what each problem `type` means (problem responses link here). */
export function renderPostingData(document: ApiDocument): string {
  const problems = Object.entries(PROBLEM_ANCHORS)
    .map(([anchor, info]) => {
      const uses = Object.values(PROBLEMS).filter((problem) => problem.anchor === anchor);
      const statuses = uses.map((problem) => `${problem.status} <em>${escapeHtml(problem.title)}</em>`).join(', ');
      return `<section id="${escapeHtml(anchor)}"><h3>${escapeHtml(info.heading)} <span class="muted">#${escapeHtml(anchor)}</span></h3>
<p>Status: ${statuses}</p><p>${inlineCode(info.explanation)}</p></section>`;
    })
    .join('\n');
  const toc: TocEntry[] = [
    { href: '#errors', label: 'Problem responses' },
    {
      href: '#types',
      label: 'Problem types',
      children: Object.entries(PROBLEM_ANCHORS).map(([anchor, info]) => ({ href: `#${anchor}`, label: info.heading })),
    },
    { href: '/apidoc/v1/', label: 'Guide and reference' },
  ];
  return page(
    'Errors',
    `<h1>Posting data: conventions and errors</h1>
<section id="errors"><h2>Problem responses</h2>
<p>Every 4xx and 5xx answer is <code>application/problem+json</code> with these fields; <code>type</code> links to a section below. A request
that fails changes nothing. The <a href="/apidoc/v1/#conventions">conventions</a> say how requests are made.</p>
${fieldTable(document, componentSchema(document, 'JsonProblemResponse'), 'problem', false)}
</section>
<section id="types"><h2>Problem types</h2>
${problems}
</section>`,
    toc,
  );
}
