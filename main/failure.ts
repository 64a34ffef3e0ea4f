import { DATA_DIR_BUSY_PREFIX } from '../shared/host-messages';

/** What the user is told when the server cannot start or stops on its own: never hidden. */
export type ServerFailure = {
  kind: 'start' | 'crash';
  message: string | undefined;
  code?: number | null;
  logsDir: string | null;
};

export const FAILURE_CHOICES = ['Restart the server', 'Open the logs folder', 'Quit SignDesk'] as const;
export type FailureChoice = 'restart' | 'open-logs' | 'quit';

export type FailureDialog = {
  title: string;
  message: string;
  detail: string;
  buttons: string[];
  defaultId: number;
  cancelId: number;
};

export function describeServerFailure(failure: ServerFailure): FailureDialog {
  // Another SignDesk (`npm run server`, a CLI command) has the data folder: say which, and what to do.
  if (failure.message?.startsWith(DATA_DIR_BUSY_PREFIX)) {
    return {
      title: 'SignDesk',
      message: 'SignDesk is already running on this computer with the same data folder.',
      detail: `${failure.message}\n\nOnly one SignDesk at a time may use a data folder. Stop the other one (or use it: its address is above), then choose "Restart the server".`,
      buttons: [...FAILURE_CHOICES],
      defaultId: 0,
      cancelId: 2,
    };
  }
  const what =
    failure.kind === 'start'
      ? 'The SignDesk server could not start.'
      : 'The SignDesk server stopped unexpectedly. The API and the signing pages are unreachable until it runs again.';
  const why =
    failure.message ??
    (failure.code === null || failure.code === undefined
      ? 'It was ended by the system.'
      : `It exited with code ${failure.code}.`);
  const where = failure.logsDir ? `The logs are in ${failure.logsDir}` : 'No log folder could be determined.';
  return {
    title: 'SignDesk',
    message: what,
    detail: `${why}\n\n${where}\n\nNo work is lost: deliveries and messages waiting in the queue are sent once the server runs again.`,
    buttons: [...FAILURE_CHOICES],
    defaultId: 0,
    cancelId: 2,
  };
}

export function failureChoiceOf(buttonIndex: number): FailureChoice {
  return (['restart', 'open-logs', 'quit'] as const)[buttonIndex] ?? 'quit';
}
