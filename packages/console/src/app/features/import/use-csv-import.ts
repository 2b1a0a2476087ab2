/**
 * The CSV import's steps as state: the file read, the mapping chosen, the dry run (with the
 * related records looked up on the agent), the import run and its outcome. The logic is in the
 * pure modules beside this one; this hook calls the agent and keeps the results.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import {
  AgentError,
  errorText,
  leaf,
  primaryKeys,
  typeName,
  type AgentSchema,
  type SchemaCollection,
} from '../../../protocol';
import { collectionOf, rememberDenied } from '../../data';
import { useSession } from '../../session';
import { decodeCsv, parseCsv, type ParsedCsv } from './csv-parse';
import { autoMap, type Mapping } from './mapping';
import { runImport, type ImportOutcome } from './run-import';
import { checkRows, markMissing, relatedIds, type ImportRow } from './validate';

export type ImportStep = 'file' | 'mapping' | 'check' | 'run';

/** How many ids one look-up of related records asks for. */
const LOOKUP_SIZE = 100;

export interface DryRun {
  rows: ImportRow[];
  ready: ImportRow[];
  invalid: ImportRow[];
  /** Related records that could not be looked up (the agent will say at import). */
  notes: string[];
}

export function useCsvImport(collection: SchemaCollection, schema: AgentSchema) {
  const { client } = useSession();
  const queryClient = useQueryClient();
  const [step, setStep] = useState<ImportStep>('file');
  const [file, setFile] = useState<{ name: string; parsed: ParsedCsv }>();
  const [fileError, setFileError] = useState<string>();
  const [mapping, setMapping] = useState<Mapping>([]);
  const [dryRun, setDryRun] = useState<DryRun>();
  const [checking, setChecking] = useState(false);
  const [progress, setProgress] = useState({ done: 0, failed: 0 });
  const [outcome, setOutcome] = useState<ImportOutcome>();
  const abort = useRef<AbortController>(undefined);

  const readFile = async (picked: File) => {
    setFileError(undefined);
    try {
      const parsed = parseCsv(decodeCsv(await picked.arrayBuffer()));
      if (parsed.headers.length === 0 || parsed.records.length === 0)
        throw new Error('The file has no records under its header line.');
      setFile({ name: picked.name, parsed });
      setMapping(autoMap(parsed.headers, collection));
      setStep('mapping');
    } catch (error) {
      setFileError(`${picked.name}: ${(error as Error).message}`);
    }
  };

  /** Asks the agent which related records exist, for the ids the rows name. */
  const lookUpRelated = async (rows: ImportRow[], notes: string[]) => {
    for (const [relation, { target, ids }] of relatedIds(rows)) {
      const keys = primaryKeys(collectionOf(schema, target) ?? { name: target, fields: [] });
      if (keys.length !== 1) continue;
      const key = keys[0]!;
      const missing = new Set(ids);
      const header = file!.parsed.headers[mapping.indexOf(relation)] ?? relation;
      try {
        const all = [...ids];
        for (let start = 0; start < all.length; start += LOOKUP_SIZE) {
          const chunk = all.slice(start, start + LOOKUP_SIZE);
          const values = typeName(key.type) === 'Number' ? chunk.map(Number) : chunk;
          const found = await client.list(target, {
            fields: [key.field],
            filters: leaf(key.field, 'in', values),
            page: { number: 1, size: chunk.length },
          });
          for (const record of found) missing.delete(record.id);
        }
        markMissing(rows, relation, header, missing);
      } catch (error) {
        notes.push(
          `“${header}” could not be checked (${errorText(error).message}); the agent will say at import.`,
        );
      }
    }
  };

  const check = async () => {
    if (!file) return;
    setChecking(true);
    try {
      const rows = checkRows(file.parsed, mapping, collection, schema);
      const notes: string[] = [];
      await lookUpRelated(
        rows.filter((row) => row.problems.length === 0),
        notes,
      );
      setDryRun({
        rows,
        ready: rows.filter((row) => row.problems.length === 0),
        invalid: rows.filter((row) => row.problems.length > 0),
        notes,
      });
      setStep('check');
    } finally {
      setChecking(false);
    }
  };

  const start = async () => {
    if (!dryRun) return;
    const controller = new AbortController();
    abort.current = controller;
    setProgress({ done: 0, failed: 0 });
    setOutcome(undefined);
    setStep('run');
    // One correlation for the whole import (agent protocol §1.6): History shows its creations
    // as one change, which a revert undoes in one step.
    const importing = client.withHeaders({
      'x-forest-correlation-id': crypto.randomUUID(),
      'x-canopy-correlation-kind': 'import',
    });
    const result = await runImport({
      rows: dryRun.ready,
      signal: controller.signal,
      create: (row) => importing.create(collection.name, row.values, row.toOne),
      describe: (error) => errorText(error, { collection: collection.name }).message,
      // A withdrawn right, a lost session or an unreachable agent refuses every record alike.
      fatal: (error) => {
        if (!(error instanceof AgentError)) return true;
        // The right to create was withdrawn since the page opened: the button goes too.
        if (error.status === 403) rememberDenied(collection.name, 'addEnabled');
        return error.status === 401 || error.status === 403;
      },
      onProgress: (done, failed) => setProgress({ done, failed }),
    });
    setOutcome(result);
    void queryClient.invalidateQueries({ queryKey: ['list'] });
    void queryClient.invalidateQueries({ queryKey: ['count'] });
  };

  const reset = () => {
    setStep('file');
    setFile(undefined);
    setDryRun(undefined);
    setOutcome(undefined);
  };

  return {
    step,
    setStep,
    file,
    fileError,
    readFile,
    mapping,
    setMapping,
    check,
    checking,
    dryRun,
    start,
    cancel: () => abort.current?.abort(),
    progress,
    outcome,
    reset,
  };
}

export type CsvImport = ReturnType<typeof useCsvImport>;
