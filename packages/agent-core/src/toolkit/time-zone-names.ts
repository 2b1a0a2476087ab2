let canonical: ReadonlySet<string> | undefined;

/**
 * Whether `name` is one of the runtime's canonical IANA time zone names (`Europe/Paris`), read
 * once from `Intl.supportedValuesOf('timeZone')`. A cheap first check before luxon or
 * `Intl.DateTimeFormat`: building a date formatter pages in ~9 MB of ICU locale and calendar
 * data, which a process that validates zone names but computes no dates never needs. `false`
 * does not mean invalid: aliases (`UTC`, `US/Pacific`) are not canonical.
 */
export function isCanonicalTimeZone(name: string): boolean {
  canonical ??= new Set(Intl.supportedValuesOf('timeZone'));
  return canonical.has(name);
}
