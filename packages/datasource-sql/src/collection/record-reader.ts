import type { RecordData } from '@canopy/agent-core';
import type { SqlDialect } from '../connection/sql-connection-params';
import type { IntrospectedColumn } from '../introspection/introspection';
import { fromDatabase } from '../values/from-database';

/** One selected output: a column path, or the key that tells whether a joined row exists. */
export interface Selected {
  alias: string;
  path: string;
  column?: IntrospectedColumn;
  /** For relation markers: the relation path whose join key this is. */
  relation?: string;
}

function setPath(record: RecordData, path: string, value: unknown): void {
  const parts = path.split(':');
  const last = parts.pop() as string;
  let target = record;
  for (const part of parts) {
    const next = target[part];
    if (next === null) return;
    if (typeof next !== 'object' || next === undefined) target[part] = {};
    target = target[part] as RecordData;
  }
  target[last] = value;
}

/**
 * Turns flat rows (one alias per selected column) into records nested along relation paths; a
 * relation whose join found nothing becomes `null`.
 */
export function readRows(
  rows: Record<string, unknown>[],
  selected: Selected[],
  dialect: SqlDialect,
): RecordData[] {
  const markers = selected.filter((item) => item.relation !== undefined);
  const columns = selected.filter((item) => item.column !== undefined);
  return rows.map((row) => {
    const record: RecordData = {};
    const missing = markers
      .filter((marker) => row[marker.alias] === null || row[marker.alias] === undefined)
      .map((marker) => marker.relation as string)
      .sort((a, b) => a.length - b.length);
    for (const relation of missing) setPath(record, relation, null);
    for (const item of columns) {
      const column = item.column as IntrospectedColumn;
      setPath(record, item.path, fromDatabase(column.type, row[item.alias], dialect));
    }
    return record;
  });
}
