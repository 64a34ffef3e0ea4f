/** Variables the server process must not inherit from whoever started the app. */
const DROPPED = ['NODE_OPTIONS', 'ELECTRON_RUN_AS_NODE'];

/**
 * The server's environment: the user's configuration (PORT, SMTP_URL, …) passes through; Node
 * switches do not; the development-only SQLite addon path is honoured only outside a package,
 * so nobody can make an installed SignDesk load another native library through the environment.
 */
export function createServerEnv(
  env: Record<string, string | undefined>,
  options: { isPackaged: boolean },
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || DROPPED.includes(name)) continue;
    if (name === 'SIGNDESK_SQLITE_BINDING' && options.isPackaged) continue;
    result[name] = value;
  }
  return result;
}
