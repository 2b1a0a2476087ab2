/**
 * Wire form of a value read from a data source (§7.7): dates as ISO-8601 UTC instants (what
 * `JSON.stringify` does), bytes as a data URI, everything else as is.
 */
export function encodeValue(value: unknown): unknown {
  if (Buffer.isBuffer(value))
    return `data:application/octet-stream;base64,${value.toString('base64')}`;
  return value;
}
