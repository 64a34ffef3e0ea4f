import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { readBootstrap } from './bootstrap';

/** Mounts the page's React app over the first screen the server wrote. */
export function startApp(): void {
  const root = document.getElementById('root');
  if (!root) return;
  createRoot(root).render(
    <StrictMode>
      <App bootstrap={readBootstrap()} />
    </StrictMode>,
  );
}
