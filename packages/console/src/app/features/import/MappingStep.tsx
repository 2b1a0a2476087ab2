/**
 * The import's mapping: which field each column of the file fills (guessed by name, changed here,
 * or ignored). Required fields are listed with whether a column fills them; a column that names a
 * read-only field is said to be ignored.
 */
import { Alert, Badge, Button, Group, List, Select, Stack, Table, Text } from '@mantine/core';
import { humanize, isToOne, targetCollection, type SchemaCollection } from '../../../protocol';
import type { ParsedCsv } from './csv-parse';
import {
  fieldNamed,
  isReadOnlyField,
  isRequiredField,
  mappingProblems,
  writableFields,
  type Mapping,
} from './mapping';
import { formatNumber } from '../../components/format';

const IGNORE = '__ignore__';

export function MappingStep({
  collection,
  parsed,
  mapping,
  onChange,
  onBack,
  onCheck,
  checking,
}: {
  collection: SchemaCollection;
  parsed: ParsedCsv;
  mapping: Mapping;
  onChange(mapping: Mapping): void;
  onBack(): void;
  onCheck(): void;
  checking: boolean;
}) {
  const fields = writableFields(collection);
  const options = [
    { value: IGNORE, label: 'Ignore this column' },
    ...fields.map((field) => ({
      value: field.field,
      label: `${humanize(field.field)}${isToOne(field) ? ` (${humanize(targetCollection(field) ?? '')} id)` : ''}${isRequiredField(field) ? ' *' : ''}`,
    })),
  ];
  const problems = mappingProblems(mapping, parsed.headers, collection);
  const required = fields.filter(isRequiredField);
  const sample = parsed.records[0]?.cells ?? [];
  return (
    <Stack gap="sm">
      <Text size="sm">
        {formatNumber(parsed.records.length)} records, {parsed.headers.length} columns. Choose the
        field each column fills; related records are named by their id.
      </Text>
      {required.length > 0 && (
        <Group gap={6} aria-label="Required fields">
          <Text size="sm">Required:</Text>
          {required.map((field) => {
            const mapped = mapping.includes(field.field);
            return (
              <Badge key={field.field} color={mapped ? 'teal' : 'red'} variant="light">
                {humanize(field.field)} {mapped ? '✓' : '— missing'}
              </Badge>
            );
          })}
        </Group>
      )}
      <Table.ScrollContainer minWidth={560}>
        <Table withTableBorder verticalSpacing={6}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Column of the file</Table.Th>
              <Table.Th>First record</Table.Th>
              <Table.Th>Goes into</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {parsed.headers.map((header, index) => {
              const named = fieldNamed(collection, header);
              const readOnly = named && isReadOnlyField(named) && mapping[index] === null;
              return (
                <Table.Tr key={index}>
                  <Table.Td fw={500}>{header || `Column ${index + 1}`}</Table.Td>
                  <Table.Td>
                    <Text size="sm" c="dimmed" lineClamp={1} maw={240}>
                      {sample[index] ?? ''}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Select
                      aria-label={`Field for the column ${header || index + 1}`}
                      data={options}
                      value={mapping[index] ?? IGNORE}
                      allowDeselect={false}
                      onChange={(value) =>
                        onChange(
                          mapping.map((old, i) =>
                            i === index ? (value === IGNORE ? null : value) : old,
                          ),
                        )
                      }
                      description={
                        readOnly ? `${humanize(named.field)} is read-only: ignored.` : undefined
                      }
                    />
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {problems.length > 0 && (
        <Alert color="yellow" title="Before checking the records" role="status">
          <List size="sm">
            {problems.map((problem) => (
              <List.Item key={problem}>{problem}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      <Group justify="space-between">
        <Button variant="default" onClick={onBack}>
          Choose another file
        </Button>
        <Button onClick={onCheck} disabled={problems.length > 0} loading={checking}>
          Check {formatNumber(parsed.records.length)} records
        </Button>
      </Group>
    </Stack>
  );
}
