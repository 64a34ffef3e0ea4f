import { AdminLoginLinks } from './admin-login-links';
import { SignInThrottle } from './sign-in-throttle';

/** The admin UI's in-memory state (AppContext.admin). */
export type AdminState = {
  signInThrottle: SignInThrottle;
  loginLinks: AdminLoginLinks;
  /** PUBLIC_BASE_URL and TZ as the environment gave them: the defaults under the admin's settings. */
  envDefaults: { publicBaseUrl: string | undefined; timeZone: string };
  /** The migrations the database was opened with: a restored backup is brought up to date with them. */
  migrationsFolder: string | undefined;
  /** better-sqlite3's addon for another runtime (the desktop app's), for threads that open a copy of the database. */
  sqliteBinding: string | undefined;
};

export function createAdminState(
  env: { publicBaseUrl: string | undefined; timeZone: string },
  migrationsFolder?: string,
  sqliteBinding?: string,
): AdminState {
  return {
    signInThrottle: new SignInThrottle(),
    loginLinks: new AdminLoginLinks(),
    envDefaults: { ...env },
    migrationsFolder,
    sqliteBinding,
  };
}
