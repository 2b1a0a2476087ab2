import type { RecordData } from '@canopy/agent-core/toolkit';
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

/** A relation marker: when its alias is null, the relation (path parts) is `null`. */
interface Marker {
  alias: string;
  parents: string[];
  last: string;
}

/** A column output: its alias, where it goes in the record, and its type. */
interface Output {
  alias: string;
  parents: string[];
  last: string;
  column: IntrospectedColumn;
}

function splitPath(path: string): { parents: string[]; last: string } {
  const parents = path.split(':');
  const last = parents.pop() as string;
  return { parents, last };
}

/** Sets a nested value; nothing when a relation on the way is `null` (its join found nothing). */
function setPath(record: RecordData, parents: string[], last: string, value: unknown): void {
  let target = record;
  for (const part of parents) {
    const next = target[part];
    if (next === null) return;
    if (typeof next !== 'object' || next === undefined) target[part] = {};
    target = target[part] as RecordData;
  }
  target[last] = value;
}

/**
 * The reader of one projection's rows: turns flat rows (one alias per selected column) into
 * records nested along relation paths; a relation whose join found nothing becomes `null`.
 * Paths are split once here, not per row.
 */
export function createRowReader(
  selected: Selected[],
  dialect: SqlDialect,
): (rows: Record<string, unknown>[]) => RecordData[] {
  const markers: Marker[] = selected
    .filter((item) => item.relation !== undefined)
    // Shorter relation paths first, so that a null parent is set before its children.
    .sort((a, b) => (a.relation as string).length - (b.relation as string).length)
    .map((item) => ({ alias: item.alias, ...splitPath(item.relation as string) }));
  const outputs: Output[] = selected
    .filter((item) => item.column !== undefined)
    .map((item) => ({
      alias: item.alias,
      column: item.column as IntrospectedColumn,
      ...splitPath(item.path),
    }));
  const read = (row: Record<string, unknown>): RecordData => {
    const record: RecordData = {};
    for (const marker of markers) {
      const key = row[marker.alias];
      if (key === null || key === undefined) setPath(record, marker.parents, marker.last, null);
    }
    for (const output of outputs) {
      const value = fromDatabase(output.column.type, row[output.alias], dialect);
      if (output.parents.length === 0) record[output.last] = value;
      else setPath(record, output.parents, output.last, value);
    }
    return record;
  };
  return (rows) => {
    const records = new Array<RecordData>(rows.length);
    for (let index = 0; index < rows.length; index += 1) {
      records[index] = read(rows[index] as Record<string, unknown>);
    }
    return records;
  };
}
