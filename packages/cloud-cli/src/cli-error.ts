import { ExitCode } from './exit-code';

/** Stable codes of the failures `canopy-cloud` reports (one sentence each, never a stack). */
export type CliErrorCode =
  | 'INVALID_INPUT'
  | 'NOT_AUTHENTICATED'
  | 'LOGIN_FAILED'
  | 'UNKNOWN_ENV_SECRET'
  | 'PLATFORM_UNREACHABLE'
  | 'PLATFORM_ERROR'
  | 'DIRECTORY_EXISTS'
  | 'DISK_ERROR'
  | 'NOT_A_PROJECT'
  | 'CUSTOMIZATION_FAILED'
  | 'DATABASE_ERROR';

const EXIT_CODES: Record<CliErrorCode, number> = {
  INVALID_INPUT: ExitCode.Usage,
  NOT_AUTHENTICATED: ExitCode.Authentication,
  LOGIN_FAILED: ExitCode.Authentication,
  UNKNOWN_ENV_SECRET: ExitCode.Authentication,
  PLATFORM_UNREACHABLE: ExitCode.Failure,
  PLATFORM_ERROR: ExitCode.Failure,
  DIRECTORY_EXISTS: ExitCode.Failure,
  DISK_ERROR: ExitCode.Failure,
  NOT_A_PROJECT: ExitCode.Failure,
  CUSTOMIZATION_FAILED: ExitCode.Failure,
  DATABASE_ERROR: ExitCode.Failure,
};

/**
 * A failure the user can act on: `message` is one sentence saying what happened and what to do.
 * Never carries a secret.
 */
export class CliError extends Error {
  override readonly name = 'CliError';
  /** The process exit code this failure maps to. */
  readonly exitCode: number;

  constructor(
    readonly code: CliErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.exitCode = EXIT_CODES[code];
  }
}

/** Whether `error` is a {@link CliError} (checked by name, so two copies of the package agree). */
export function isCliError(error: unknown): error is CliError {
  return error instanceof Error && error.name === 'CliError' && 'code' in error;
}
