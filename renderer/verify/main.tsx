import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../signing/styles.css';
import './verify.css';
import { VerifyApp } from './verify-app';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <VerifyApp />
    </StrictMode>,
  );
}
