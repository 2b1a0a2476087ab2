/**
 * The `parameters` echo of a list response: path parameters, the normalized query (dates as
 * ISO 8601 UTC with milliseconds), and nothing the contract does not know (`cursor`, `format`).
 */
export function echoParameters(
  path: Record<string, string>,
  query: Record<string, unknown>,
): Record<string, unknown> {
  const echo: Record<string, unknown> = { ...path };
  for (const [key, value] of Object.entries(query)) {
    if (key === 'cursor' || key === 'format' || value === undefined) continue;
    echo[key] = /\.(eq|lt|lte|gt|gte)$/.test(key) ? new Date(value as string).toISOString() : value;
  }
  return echo;
}
