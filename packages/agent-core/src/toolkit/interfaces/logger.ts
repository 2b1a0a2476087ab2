/** Log levels, lowest first. */
export type LoggerLevel = 'Debug' | 'Info' | 'Warn' | 'Error';

/**
 * A logger function. Messages never contain secrets.
 *
 * @example
 * const logger: Logger = (level, message) => console.log(`[${level}] ${message}`);
 */
export type Logger = (level: LoggerLevel, message: string, error?: unknown) => void;
