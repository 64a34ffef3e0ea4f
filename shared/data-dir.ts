/**
 * Where SignDesk keeps its data by default, as path segments (shared/ imports nothing of Node:
 * the caller joins them). One rule for the server, the CLI and the desktop shell, so the three
 * always open the same database. An empty variable counts as unset (`||`), as the XDG
 * specification says of XDG_DATA_HOME.
 */
export function defaultDataDirSegments(
  platform: string,
  env: Record<string, string | undefined>,
  home: string,
): string[] {
  if (platform === 'win32') return env.APPDATA ? [env.APPDATA, 'SignDesk'] : [home, 'AppData', 'Roaming', 'SignDesk'];
  if (platform === 'darwin') return [home, 'Library', 'Application Support', 'SignDesk'];
  return env.XDG_DATA_HOME ? [env.XDG_DATA_HOME, 'SignDesk'] : [home, '.local', 'share', 'SignDesk'];
}
