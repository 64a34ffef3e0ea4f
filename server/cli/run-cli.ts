import { parseArgs } from 'node:util';
import { z } from 'zod';
import { TOKEN_KINDS } from '../../shared/api/enums';
import { ZUserCreateSchema } from '../../shared/api/users';
import { MAX_RATE_LIMIT } from '../../shared/constants';
import { loadConfig } from '../config/config';
import type { AppContext } from '../context/app-context';
import { openOfflineContext } from '../app/context-offline';
import { AppError } from '../core/errors';
import { ACTIVE_ADMINISTRATOR } from '../policies/actors';
import { createToken } from '../tokens/create-token';
import { createUser } from '../users/create-user';
import { removeSecondFactor } from '../sessions/second-factor';
import { updateGeneralSettings } from '../settings/update-general-settings';
import { backupCreate, backupRestore, holdsOffice, NO_OFFICE } from './backup-commands';
import { subscriptionSet, subscriptionShow } from './subscription-commands';
import { migrateCommand } from './migrate-command';

/**
 * Commands that work whether or not the server runs (the founders' operational contract: a token
 * or user made beside a running server, which sees it at once; a backup read beside it). The
 * others (a restore) need DATA_DIR to themselves.
 */
const RUNS_BESIDE_A_SERVER = new Set([
  'backup create',
  'user create',
  'user reset-second-factor',
  'token create',
  'subscription show',
  'subscription set',
]);

export type CliIo = {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Asks on the terminal without echo; absent where there is no terminal. */
  askSecret?: (prompt: string) => Promise<string>;
  /**
   * Runs the command in this already-open context instead of opening DATA_DIR: the tests' way to
   * make a token inside a server they run, whose DATA_DIR the CLI cannot take while it runs.
   */
  context?: AppContext;
};

const USAGE = `Usage:
  npm run cli -- token create --name NAME [--kind customer|partner] [--rate-limit N] [--user USERNAME]
  npm run cli -- user create --username U --password P --email E [--admin] [--office-name NAME]
  npm run cli -- user reset-second-factor --username U   (turns off their authenticator app)
  npm run cli -- backup create --out FILE
  npm run cli -- backup restore --in FILE      (with the server stopped)
  npm run cli -- subscription show [--json]
  npm run cli -- subscription set [--plan-name NAME|none] [--seats N|unlimited]
      [--contracts-per-month N|unlimited] [--sms-per-month N|unlimited] [--end-date YYYY-MM-DD|none]
  npm run cli -- migrate --to postgres://USER@HOST/DATABASE   (with the server stopped)

Works on DATA_DIR (default: the per-user app-data folder). backup restore and migrate need the
server stopped; the other commands work whether or not it runs, and a running server sees their
changes at once. The backup passphrase comes from BACKUP_PASSPHRASE, else it is asked for.`;

export class UsageError extends Error {}

async function tokenCreate(ctx: AppContext, args: string[], io: CliIo): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      name: { type: 'string' },
      kind: { type: 'string', default: 'customer' },
      'rate-limit': { type: 'string' },
      user: { type: 'string' },
    },
  });
  if (!values.name) throw new UsageError('token create needs --name NAME');
  const kind = z.enum(TOKEN_KINDS).safeParse(values.kind);
  if (!kind.success) throw new UsageError(`--kind must be one of ${TOKEN_KINDS.join(', ')}`);
  const rateLimit = values['rate-limit'] === undefined ? null : Number(values['rate-limit']);
  if (rateLimit !== null && (!Number.isInteger(rateLimit) || rateLimit < 1 || rateLimit > MAX_RATE_LIMIT)) {
    throw new UsageError('--rate-limit must be a whole number of requests a minute, at least 1');
  }
  const owner = values.user
    ? await ctx.repos.users.findByUsername(values.user)
    : await ctx.repos.users.firstMatching(ACTIVE_ADMINISTRATOR);
  if (!owner) {
    throw new UsageError(
      values.user
        ? `No user is named ${values.user}.`
        : 'No administrator exists yet. Create one first: npm run cli -- user create --username U --password P --email E --admin',
    );
  }
  const { row, apiKey } = await createToken(ctx, {
    name: values.name,
    kind: kind.data,
    rateLimit,
    ownerUserId: owner.id,
  });
  io.out(`Created ${row.kind} token "${row.name}" (id ${row.id}) owned by ${owner.username}. The key is shown once:`);
  io.out(apiKey);
}

async function userCreate(ctx: AppContext, args: string[], io: CliIo): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      username: { type: 'string' },
      password: { type: 'string' },
      email: { type: 'string' },
      firstname: { type: 'string' },
      lastname: { type: 'string' },
      admin: { type: 'boolean', default: false },
      'office-name': { type: 'string' },
    },
  });
  const input = ZUserCreateSchema.safeParse({
    username: values.username,
    password: values.password,
    email: values.email,
    firstname: values.firstname,
    lastname: values.lastname,
    permission_template: values.admin ? 'CUSTOMER_ADMIN_USER' : 'CUSTOMER_USER',
  });
  if (!input.success) {
    const lines = input.error.issues.map((issue) => `--${issue.path.join('.')}: ${issue.message}`);
    throw new UsageError(`user create needs a valid --username, --password and --email:\n  ${lines.join('\n  ')}`);
  }
  const officeName = values['office-name']?.trim();
  if (officeName !== undefined && (officeName === '' || officeName.length > 200))
    throw new UsageError('--office-name: must be 1 to 200 characters');
  const user = await createUser(ctx, input.data);
  // The office's name, as the first-run page sets it: its seal certificate then carries it.
  if (officeName !== undefined) await updateGeneralSettings(ctx, { office_name: officeName });
  io.out(`Created ${values.admin ? 'administrator' : 'user'} ${user.username}: /api/users/${user.id}`);
}

/**
 * For the user who lost their phone: their authenticator app and recovery codes go, and they
 * sign in with the password alone (or set up a new app, where the office requires two factors).
 * The office log records it.
 */
async function userResetSecondFactor(ctx: AppContext, args: string[], io: CliIo): Promise<void> {
  const { values } = parseArgs({ args, options: { username: { type: 'string' } } });
  if (!values.username) throw new UsageError('user reset-second-factor needs --username U');
  const user = await ctx.repos.users.findByUsername(values.username);
  if (!user) throw new UsageError(`No user is named ${values.username}.`);
  const hadOne = await removeSecondFactor(ctx, user.id, 'second_factor.reset', { userAgent: 'cli' });
  io.out(
    hadOne
      ? `Turned off the authenticator app of ${user.username}; their recovery codes no longer work.`
      : `${user.username} had no authenticator app; recorded all the same.`,
  );
}

/** Runs one CLI command; returns the process exit code. */
export async function runCli(argv: string[], env: Record<string, string | undefined>, io: CliIo): Promise<number> {
  const [noun, verb, ...rest] = argv;
  const command = `${noun ?? ''} ${verb ?? ''}`;
  const commands: Record<string, (ctx: AppContext, args: string[], io: CliIo) => Promise<void>> = {
    'token create': tokenCreate,
    'user create': userCreate,
    'user reset-second-factor': userResetSecondFactor,
    'backup create': async (ctx, args) => backupCreate(ctx, args, env, io),
    'subscription show': async (ctx, args) => subscriptionShow(ctx, args, io.out),
    'subscription set': async (ctx, args) => subscriptionSet(ctx, args, io.out),
  };
  if (command === 'backup restore') return runOffline(() => backupRestore(loadConfig(env), rest, env, io), io);
  if (noun === 'migrate') return runOffline(() => migrateCommand(argv.slice(1), env, io), io);
  const run = commands[command];
  if (!run) {
    io.err(
      noun === undefined || noun === 'help' || noun === '--help'
        ? USAGE
        : `Unknown command "${command.trim()}".\n\n${USAGE}`,
    );
    return noun === undefined || noun === 'help' || noun === '--help' ? 0 : 2;
  }
  let opened: Awaited<ReturnType<typeof openOfflineContext>> | undefined;
  return runOffline(async () => {
    const config = loadConfig(env);
    io.out(`DATA_DIR: ${config.dataDir}`);
    // Opening a folder makes an office there: a backup of a folder that holds none would be an
    // empty office's, made by the command itself.
    if (command === 'backup create' && config.database.kind === 'sqlite' && !holdsOffice(config.dataDir))
      throw new UsageError(NO_OFFICE(config.dataDir));
    opened = io.context
      ? { ctx: io.context, close: async () => undefined }
      : await openOfflineContext(config, { role: `cli ${command}`, mayRunBeside: RUNS_BESIDE_A_SERVER.has(command) });
    await run(opened.ctx, rest, io);
  }, io).finally(async () => opened?.close());
}

/** Runs a command and turns what went wrong into a message and an exit code. */
async function runOffline(work: () => Promise<void>, io: CliIo): Promise<number> {
  try {
    await work();
    return 0;
  } catch (err) {
    if (err instanceof UsageError || (err instanceof TypeError && 'code' in err)) {
      io.err(err.message);
      return 2;
    }
    if (err instanceof AppError) {
      io.err([err.message, ...err.validationErrors].join('\n  '));
      return 1;
    }
    io.err(err instanceof Error ? err.message : String(err));
    return 1;
  }
}
