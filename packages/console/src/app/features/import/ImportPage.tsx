/**
 * A collection's CSV import (`data/:collection/import`): choose a file, map its columns to the
 * collection's fields, check every record (the dry run), then create them with the agent's
 * ordinary create route, a few at a time, with the outcome of each record by the line of the file.
 * Only for roles that may create in the collection: anyone else is told so, here too.
 */
import { Alert, Anchor, Stack, Stepper, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { humanize, type AgentSchema, type SchemaCollection } from '../../../protocol';
import { UnknownCollection } from '../../components/States';
import { saveBlob } from '../../components/table/use-csv-export';
import { collectionOf, useCan, useDataBase, useSchema } from '../../data';
import { CheckStep } from './CheckStep';
import { failedRowsCsv, failedRowsFilename, failedRowsOf } from './failed-csv';
import { FileStep } from './FileStep';
import { MappingStep } from './MappingStep';
import { RunStep } from './RunStep';
import { useCsvImport, type ImportStep } from './use-csv-import';
import { collectionPath } from '../../data-paths';

const STEPS: ImportStep[] = ['file', 'mapping', 'check', 'run'];

function ImportFlow({ collection, schema }: { collection: SchemaCollection; schema: AgentSchema }) {
  const csv = useCsvImport(collection, schema);
  const can = useCan();
  const listUrl = collectionPath(useDataBase(), collection.name);
  const name = humanize(collection.name).toLowerCase();
  const { file, dryRun, outcome } = csv;
  // Checked at every step but the run: a right withdrawn mid-run leaves its summary in view.
  const allowed = can(collection.name, 'addEnabled') && !collection.isReadOnly;
  if (!allowed && csv.step !== 'run') {
    return (
      <Alert color="red" title="Import not allowed" role="alert">
        Your role may not create {name}, so it cannot import them. Ask an administrator of the
        project for the right.
      </Alert>
    );
  }

  const download = () => {
    if (!file || !dryRun) return;
    const text = failedRowsCsv(file.parsed.headers, failedRowsOf(dryRun, outcome));
    saveBlob(
      new Blob([text], { type: 'text/csv;charset=utf-8' }),
      failedRowsFilename(collection.name, new Date()),
    );
  };

  return (
    <Stepper active={STEPS.indexOf(csv.step)} size="sm" allowNextStepsSelect={false}>
      <Stepper.Step label="File" description={file?.name ?? 'CSV'}>
        <FileStep
          name={name}
          error={csv.fileError}
          onFile={(picked) => void csv.readFile(picked)}
        />
      </Stepper.Step>
      <Stepper.Step label="Columns" description="Map to fields">
        {file && (
          <MappingStep
            collection={collection}
            parsed={file.parsed}
            mapping={csv.mapping}
            onChange={csv.setMapping}
            onBack={csv.reset}
            onCheck={() => void csv.check()}
            checking={csv.checking}
          />
        )}
      </Stepper.Step>
      <Stepper.Step label="Dry run" description="Check every record">
        {dryRun && (
          <CheckStep
            dryRun={dryRun}
            name={name}
            onBack={() => csv.setStep('mapping')}
            onDownload={download}
            onImport={() => void csv.start()}
          />
        )}
      </Stepper.Step>
      <Stepper.Step label="Import" description="Create the records">
        {dryRun && (
          <RunStep
            dryRun={dryRun}
            progress={csv.progress}
            outcome={outcome}
            listUrl={listUrl}
            name={name}
            onCancel={csv.cancel}
            onDownload={download}
            onAgain={csv.reset}
          />
        )}
      </Stepper.Step>
    </Stepper>
  );
}

export function ImportPage() {
  const { collection: name } = useParams();
  const schema = useSchema();
  const base = useDataBase();
  // The schema comes with the workspace (never pending here): without it, say why.
  const collection = collectionOf(schema.data, name);
  if (!schema.data || !collection) {
    return schema.error ? (
      <Alert color="red" title="No schema">
        {schema.error.message}
      </Alert>
    ) : (
      <UnknownCollection name={name} />
    );
  }
  return (
    <Stack gap="md" maw={1100} miw={0}>
      <Anchor component={Link} to={collectionPath(base, collection.name)} size="sm">
        ← {humanize(collection.name)}
      </Anchor>
      <Title order={2}>Import {humanize(collection.name).toLowerCase()} from a CSV file</Title>
      <ImportFlow key={collection.name} collection={collection} schema={schema.data} />
    </Stack>
  );
}
