import './styles.css';

/** Longest the app waits for the first page's image before it starts anyway. */
const FIRST_PAGE_WAIT_MS = 6_000;

/**
 * The page's first script, a few hundred bytes. The server wrote the first page into the HTML;
 * on a slow phone, running the app (React, ~250 KB of script) would hold up drawing it, and
 * fetching the app would share the link with the image. So the app is fetched and started only
 * once the first page is on the screen (or could not load).
 */
function firstPageShown(): Promise<void> {
  const image = document.querySelector<HTMLImageElement>('.static-frame img');
  if (!image) return Promise.resolve();
  const loaded = image.complete
    ? Promise.resolve()
    : new Promise<void>((resolve) => {
        image.addEventListener('load', () => resolve(), { once: true });
        image.addEventListener('error', () => resolve(), { once: true });
      });
  const painted = loaded.then(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))),
  );
  return Promise.race([painted, new Promise<void>((resolve) => setTimeout(resolve, FIRST_PAGE_WAIT_MS))]);
}

void firstPageShown()
  .then(() => import('./start-app'))
  .then(({ startApp }) => startApp());
