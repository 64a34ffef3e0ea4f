/**
 * A User-Agent header as a person reads it ("Chrome · Windows"); the whole header stays
 * available as a tooltip. Unknown agents (scripts, integrations) are shown as they are.
 */
export function describeUserAgent(userAgent: string): string {
  const browser = browserOf(userAgent);
  if (!browser) return userAgent;
  const system = systemOf(userAgent);
  return system ? `${browser} · ${system}` : browser;
}

function browserOf(ua: string): string | undefined {
  if (/Electron\//.test(ua)) return 'SignDesk desktop';
  if (/Edg(A|iOS)?\//.test(ua)) return 'Edge';
  if (/OPR\//.test(ua)) return 'Opera';
  if (/(Firefox|FxiOS)\//.test(ua)) return 'Firefox';
  if (/(Chrome|CriOS|Chromium)\//.test(ua)) return 'Chrome';
  if (/Version\/[\d.]+.*Safari\//.test(ua)) return 'Safari';
  return undefined;
}

function systemOf(ua: string): string | undefined {
  if (/Windows/.test(ua)) return 'Windows';
  if (/iPhone|iPad|iPod/.test(ua)) return 'iOS';
  if (/Android/.test(ua)) return 'Android';
  if (/Mac OS X|Macintosh/.test(ua)) return 'macOS';
  if (/CrOS/.test(ua)) return 'ChromeOS';
  if (/Linux|X11/.test(ua)) return 'Linux';
  return undefined;
}
