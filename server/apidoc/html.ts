const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

/** `code` spans for backticked words in our own prose. */
export function inlineCode(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

/** Paragraphs (blank-line separated) of prose with backticked code. */
export function paragraphs(text: string): string {
  return text
    .split(/\n{2,}/)
    .filter((part) => part.trim() !== '')
    .map((part) => `<p>${inlineCode(part.trim())}</p>`)
    .join('\n');
}

export type TocEntry = { href: string; label: string; children?: readonly TocEntry[] };

function renderToc(entries: readonly TocEntry[]): string {
  const items = entries
    .map((entry) => {
      const children = entry.children?.length
        ? `<ul>${entry.children.map((child) => `<li><a href="${escapeHtml(child.href)}">${inlineCode(child.label)}</a></li>`).join('')}</ul>`
        : '';
      return `<li><a href="${escapeHtml(entry.href)}">${escapeHtml(entry.label)}</a>${children}</li>`;
    })
    .join('\n');
  return `<nav class="toc" aria-label="Contents"><p class="toc-title">Contents</p><ul>${items}</ul></nav>`;
}

/**
 * One page of the docs: our own stylesheet and script only (the CSP allows nothing else), a
 * table of contents beside the text.
 */
export function page(title: string, body: string, toc: readonly TocEntry[] = []): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · SignDesk API</title>
<link rel="stylesheet" href="/apidoc/v1/style.css">
<script src="/apidoc/v1/apidoc.js" defer></script>
</head>
<body>
<header class="top"><a class="brand" href="/apidoc/v1/">SignDesk API <span class="version">v1</span></a>
<nav aria-label="Documents"><a href="/apidoc/v1/">Guide and reference</a> <a href="/apidoc/v1/#webhooks">Webhooks</a> <a href="/apidoc/v1/posting_data">Errors</a> <a href="/api/openapi.json">OpenAPI 3.1</a></nav></header>
<div class="frame">
${toc.length > 0 ? renderToc(toc) : ''}
<main id="main">
${body}
</main>
</div>
</body>
</html>`;
}

/** A code block; `label` names it for the copy button and for readers. */
export function codeBlock(code: string, attributes: Record<string, string> = {}, label = ''): string {
  const attrs = Object.entries(attributes)
    .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
    .join('');
  const caption = label ? `<div class="code-label">${escapeHtml(label)}</div>` : '';
  // Focusable, so that a block wider than the column scrolls with the keyboard too.
  return `<div class="code">${caption}<pre${attrs} tabindex="0"><code>${escapeHtml(code)}</code></pre></div>`;
}

/** Copy buttons on code blocks: progressive, the page reads fine without it. */
export const SCRIPT = `
document.querySelectorAll('div.code').forEach(function (block) {
  var pre = block.querySelector('pre');
  if (!pre || !navigator.clipboard) return;
  var button = document.createElement('button');
  button.type = 'button';
  button.className = 'copy';
  button.textContent = 'Copy';
  button.addEventListener('click', function () {
    navigator.clipboard.writeText(pre.innerText).then(function () {
      button.textContent = 'Copied';
      setTimeout(function () { button.textContent = 'Copy'; }, 1500);
    });
  });
  block.insertBefore(button, block.firstChild);
});
`;
