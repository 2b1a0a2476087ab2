/**
 * The dry run: every record of the file checked against the collection's schema before anything
 * is sent: each mapped cell read as its field's type (convert.ts), required fields present, the
 * limits the schema carries (field-rules.ts), the file's own problems, and — once the hook asked
 * the agent — the related records named by id exist. Each problem keeps the record's line.
 */
import {
  humanize,
  isToOne,
  primaryKeys,
  targetCollection,
  valueProblem,
  type AgentSchema,
  type ResourceIdentifier,
  type SchemaCollection,
  type SchemaField,
} from '../../../protocol';
import { userContext, type FormatContext } from '../../components/format';
import { convertCell as convertCellFor } from './convert';
import type { ParsedCsv } from './csv-parse';
import { isReadOnlyField, isRequiredField, type Mapping } from './mapping';

export interface RowProblem {
  /** The header of the column at fault, when one is. */
  column?: string;
  message: string;
}

/** A record of the file, read: what it creates, or why it cannot. */
export interface ImportRow {
  line: number;
  cells: string[];
  values: Record<string, unknown>;
  toOne: Record<string, ResourceIdentifier>;
  problems: RowProblem[];
}

/** The primary key type of a to-one relation's collection (`undefined` for a composite key). */
function relationIdType(schema: AgentSchema, field: SchemaField) {
  const target = schema.collections.find((c) => c.name === targetCollection(field));
  const keys = target ? primaryKeys(target) : [];
  return keys.length === 1 ? keys[0]!.type : 'String';
}

export function checkRows(
  parsed: ParsedCsv,
  mapping: Mapping,
  collection: SchemaCollection,
  schema: AgentSchema,
  context: FormatContext = userContext,
): ImportRow[] {
  const columns = mapping.flatMap((name, index) => {
    const field = name === null ? undefined : collection.fields.find((f) => f.field === name);
    return field && !isReadOnlyField(field)
      ? [{ index, field, header: parsed.headers[index] ?? name!, label: humanize(field.field) }]
      : [];
  });
  const idTypes = new Map(
    columns
      .filter(({ field }) => isToOne(field))
      .map(({ field }) => [field.field, relationIdType(schema, field)]),
  );
  const fileProblems = new Map<number, string[]>();
  for (const { line, message } of parsed.problems)
    fileProblems.set(line, [...(fileProblems.get(line) ?? []), message]);

  return parsed.records.map(({ line, cells }) => {
    const row: ImportRow = { line, cells, values: {}, toOne: {}, problems: [] };
    for (const message of fileProblems.get(line) ?? []) row.problems.push({ message });
    for (const { index, field, header, label } of columns) {
      const text = cells[index] ?? '';
      if (text.trim() === '') {
        if (isRequiredField(field))
          row.problems.push({ column: header, message: `${label} is required.` });
        continue;
      }
      const idType = idTypes.get(field.field);
      const converted = convertCellFor(field, text, context, idType);
      if (!converted.ok) {
        row.problems.push({ column: header, message: `${label}: ${converted.message}` });
        continue;
      }
      if (idType !== undefined) {
        row.toOne[field.field] = { type: targetCollection(field)!, id: String(converted.value) };
        continue;
      }
      const problem = valueProblem(field, label, converted.value);
      if (problem) row.problems.push({ column: header, message: problem });
      else row.values[field.field] = converted.value;
    }
    return row;
  });
}

/** The related ids the rows name, per to-one relation: what the hook asks the agent about. */
export function relatedIds(
  rows: readonly ImportRow[],
): Map<string, { target: string; ids: Set<string> }> {
  const found = new Map<string, { target: string; ids: Set<string> }>();
  for (const row of rows) {
    for (const [relation, ref] of Object.entries(row.toOne)) {
      const entry = found.get(relation) ?? { target: ref.type, ids: new Set<string>() };
      entry.ids.add(ref.id);
      found.set(relation, entry);
    }
  }
  return found;
}

/** Marks the rows that name a related record the agent does not have (or shows this team). */
export function markMissing(
  rows: readonly ImportRow[],
  relation: string,
  header: string,
  missing: ReadonlySet<string>,
): void {
  if (missing.size === 0) return;
  const label = humanize(relation);
  for (const row of rows) {
    const id = row.toOne[relation]?.id;
    if (id === undefined || !missing.has(id)) continue;
    delete row.toOne[relation];
    row.problems.push({
      column: header,
      message: `${label}: no record #${id} exists (or your team cannot see it).`,
    });
  }
}

/** One line per problem, for the dry run's list and the failed rows' file. */
export function problemText(problems: readonly RowProblem[]): string {
  return problems.map((problem) => problem.message).join(' ');
}
