import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import scriptFontUrl from '@expo-google-fonts/dancing-script/600SemiBold/DancingScript_600SemiBold.ttf?url';
import './styles.css';

// The face the sealed PDF draws signatures in (SIL OFL), so the preview matches the result.
const scriptFont = new FontFace('SignDesk Script', `url(${scriptFontUrl})`);
document.fonts.add(scriptFont);
void scriptFont.load().catch(() => undefined);

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
