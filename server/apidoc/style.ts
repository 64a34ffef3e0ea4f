/** The docs' one stylesheet: served as a file, since the CSP allows no inline styles. */
export const STYLE = `
:root { color-scheme: light; --ink: #1d2433; --muted: #5b6478; --line: #dfe3ea; --accent: #2457d6; --code-bg: #f1f4f9; --dark: #14192a; }
* { box-sizing: border-box; }
html { scroll-padding-top: 4.5rem; }
body { margin: 0; font: 16px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: #fafbfc; }
a { color: var(--accent); }
header.top { position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap; gap: .5rem 2rem; align-items: baseline; padding: .8rem 1.5rem; background: #fff; border-bottom: 1px solid var(--line); }
.brand { font-weight: 700; color: var(--ink); text-decoration: none; }
.version { font-weight: 600; color: var(--muted); font-size: .85em; }
header.top nav a { margin-right: 1.1rem; }
.frame { display: grid; grid-template-columns: 16rem minmax(0, 1fr); max-width: 96rem; margin: 0 auto; }
.toc { position: sticky; top: 3.4rem; align-self: start; max-height: calc(100vh - 3.4rem); overflow-y: auto; padding: 1.25rem 1rem 2rem 1.5rem; font-size: .9rem; border-right: 1px solid var(--line); }
.toc-title { margin: 0 0 .5rem; font-weight: 700; color: var(--muted); text-transform: uppercase; font-size: .75rem; letter-spacing: .06em; }
.toc ul { list-style: none; margin: 0; padding: 0; }
.toc li { margin: .15rem 0; }
.toc > ul > li { margin-top: .6rem; }
.toc > ul > li > a { font-weight: 600; color: var(--ink); text-decoration: none; }
.toc li li { padding-left: .75rem; }
.toc li li a { color: var(--muted); text-decoration: none; }
.toc a:hover { color: var(--accent); text-decoration: underline; }
main { min-width: 0; padding: 1.5rem 2rem 5rem; }
h1 { font-size: 1.9rem; margin-top: .5rem; }
h2 { margin-top: 3rem; border-bottom: 1px solid var(--line); padding-bottom: .3rem; }
h3 { margin-top: 2rem; font-size: 1.1rem; }
h4 { margin: 1.25rem 0 .35rem; font-size: .95rem; }
h5 { margin: 1rem 0 .3rem; font-size: .9rem; }
section:target > h3 { background: #fff6d6; }
code { font: .9em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--code-bg); padding: .08em .3em; border-radius: 3px; overflow-wrap: anywhere; }
.operation { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 30rem); gap: 0 2rem; padding-bottom: 1.5rem; border-bottom: 1px solid var(--line); }
.operation > header { grid-column: 1 / -1; }
.operation .examples { position: sticky; top: 4rem; align-self: start; min-width: 0; }
.operation .reference { min-width: 0; }
@media (max-width: 1200px) { .operation { grid-template-columns: minmax(0, 1fr); } .operation .examples { position: static; } }
@media (max-width: 800px) { .frame { grid-template-columns: minmax(0, 1fr); } .toc { position: static; max-height: none; border-right: 0; border-bottom: 1px solid var(--line); } main { padding: 1rem; } }
.method { display: inline-block; min-width: 4.2rem; font: 700 .8rem ui-monospace, monospace; padding: .15rem .4rem; border-radius: 3px; color: #fff; text-align: center; vertical-align: .1em; }
.get { background: #2f7d32; } .post { background: #2457d6; } .put { background: #8a5200; } .delete { background: #b3261e; }
.access { color: var(--muted); font-size: .9rem; }
table { border-collapse: collapse; width: 100%; margin: .35rem 0 1rem; font-size: .9rem; }
th, td { text-align: left; padding: .4rem .55rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; font-size: .8rem; text-transform: uppercase; letter-spacing: .04em; }
td.name { white-space: nowrap; }
td.name code { background: none; padding: 0; font-weight: 600; }
.type { color: var(--muted); font-size: .85rem; }
.badge { display: inline-block; margin-left: .35rem; padding: 0 .35rem; border-radius: 3px; font-size: .72rem; font-weight: 700; letter-spacing: .02em; vertical-align: .1em; }
.required { background: #fde8e7; color: #9b1c14; }
.optional { background: #eef1f6; color: var(--muted); }
.constraints, .values, .example { display: block; color: var(--muted); font-size: .85rem; }
.muted { color: var(--muted); }
.code { position: relative; margin: .35rem 0 1rem; }
.code-label { font-size: .75rem; font-weight: 700; color: #aab3c5; background: var(--dark); padding: .4rem .8rem 0; border-radius: 6px 6px 0 0; text-transform: uppercase; letter-spacing: .05em; }
.code-label + pre { border-radius: 0 0 6px 6px; margin-top: 0; }
pre { max-width: 100%; margin: 0; background: var(--dark); color: #e6ebf5; padding: .8rem; border-radius: 6px; overflow-x: auto; font-size: .82rem; line-height: 1.45; }
pre code { background: none; padding: 0; color: inherit; overflow-wrap: normal; }
button.copy { position: absolute; top: .35rem; right: .4rem; font: 600 .72rem system-ui, sans-serif; color: #e6ebf5; background: #2b3350; border: 1px solid #3d4770; border-radius: 4px; padding: .15rem .5rem; cursor: pointer; }
button.copy:focus-visible { outline: 2px solid #f5c542; }
ol.steps > li { margin-bottom: 1.2rem; }
.callout { background: #eef4ff; border-left: 4px solid var(--accent); padding: .6rem 1rem; border-radius: 0 6px 6px 0; }
dl.statuses dt { font-weight: 600; }
dl.statuses dd { margin: 0 0 .5rem 1rem; }
`;
