import type { App, Session } from 'electron';
import { withContentSecurityPolicy } from './content-security';
import { classifyUrl, decideNavigation, decidePermission, decideWindowOpen } from './url-rules';
import { createChildWindowOptions } from './window-options';

export type SecurityDeps = {
  /** The local server's origin once it runs; until then every page is refused. */
  appOrigin: () => string | undefined;
  /** Opens an https URL in the system browser. */
  openExternal: (url: string) => void;
};

/**
 * All web-contents hardening, registered once on `web-contents-created` so that every window,
 * child window and frame gets it: navigation stays on the app's origin, new windows open only
 * for the app's own pages, https links go to the system browser, webviews never attach.
 * The decisions are the pure functions of url-rules.ts.
 */
export function registerWebContentsHardening(app: App, deps: SecurityDeps): void {
  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(({ url }) => {
      const decision = decideWindowOpen(url, deps.appOrigin());
      if (decision === 'child-window')
        return { action: 'allow', overrideBrowserWindowOptions: createChildWindowOptions() };
      if (decision === 'system-browser') deps.openExternal(url);
      return { action: 'deny' };
    });
    const guard = (event: { url: string; preventDefault(): void }) => {
      const decision = decideNavigation(event.url, deps.appOrigin());
      if (decision.allow) return;
      event.preventDefault();
      if (decision.openExternal) deps.openExternal(decision.openExternal);
    };
    contents.on('will-navigate', guard);
    contents.on('will-frame-navigate', guard);
    contents.on('will-redirect', guard);
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
}

/** Permissions (clipboard writes from the app only) and a CSP on the app's HTML pages that lack one. */
export function registerSessionPolicy(session: Session, deps: SecurityDeps): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(decidePermission(permission, details.requestingUrl, deps.appOrigin())),
  );
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) =>
    decidePermission(permission, details.requestingUrl ?? requestingOrigin, deps.appOrigin()),
  );
  session.webRequest.onHeadersReceived((details, callback) => {
    if (classifyUrl(details.url, deps.appOrigin()) !== 'app') return callback({});
    callback({ responseHeaders: withContentSecurityPolicy(details.responseHeaders) });
  });
}
