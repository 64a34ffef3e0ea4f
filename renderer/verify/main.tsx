import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../signing/styles.css';
import './verify.css';
import { readVerifyBootstrap, VerifyApp } from './verify-app';

const root = document.getElementById('root');
const bootstrap = readVerifyBootstrap();
// Without the server's bootstrap (the built file opened as it is) the page has no texts to show.
if (root && bootstrap) {
  createRoot(root).render(
    <StrictMode>
      <VerifyApp bootstrap={bootstrap} />
    </StrictMode>,
  );
}
