const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

/** `code` spans for backticked words in our own prose. */
export function inlineCode(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · SignDesk API</title>
<link rel="stylesheet" href="/apidoc/v1/style.css">
</head>
<body>
<header><a href="/apidoc/v1/">SignDesk API v1</a> <nav><a href="/apidoc/v1/">Endpoints</a> <a href="/apidoc/v1/posting_data">Conventions and errors</a> <a href="/api/openapi.json">OpenAPI 3.1</a></nav></header>
<main>
${body}
</main>
</body>
</html>`;
}

export const STYLE = `
:root { color-scheme: light; --ink: #1d2433; --muted: #5b6478; --line: #dfe3ea; --accent: #2457d6; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: #fafbfc; }
header { display: flex; gap: 2rem; align-items: baseline; padding: 1rem 2rem; background: #fff; border-bottom: 1px solid var(--line); }
header > a { font-weight: 700; color: var(--ink); text-decoration: none; }
nav a { margin-right: 1.25rem; color: var(--accent); }
main { max-width: 60rem; margin: 0 auto; padding: 1.5rem 2rem 4rem; }
h1 { font-size: 1.8rem; } h2 { margin-top: 2.5rem; border-bottom: 1px solid var(--line); padding-bottom: .3rem; }
h3 { margin-top: 1.75rem; font-size: 1.05rem; }
section:target { outline: 3px solid #f5c542; outline-offset: 6px; border-radius: 4px; }
code { font: .92em ui-monospace, SFMono-Regular, Menlo, monospace; background: #eef1f6; padding: .1em .3em; border-radius: 3px; }
.method { display: inline-block; min-width: 4.2rem; font: 700 .8rem ui-monospace, monospace; padding: .15rem .4rem; border-radius: 3px; color: #fff; text-align: center; }
.get { background: #2f7d32; } .post { background: #2457d6; } .put { background: #a86a00; } .delete { background: #b3261e; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; font-size: .93rem; }
th, td { text-align: left; padding: .35rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; }
.muted { color: var(--muted); }
`;
