/** Exit codes of `canopy-cloud`, so scripts can tell failures apart. */
export const ExitCode = {
  Ok: 0,
  /** Anything the server or the machine got wrong. */
  Failure: 1,
  /** The command line itself is wrong (unknown command or option, missing or malformed value). */
  Usage: 2,
  /** The platform refused the credentials (missing, expired or revoked token, wrong secret). */
  Authentication: 3,
} as const;
