/** Records an import refused, by the line of the file they start on (the first ones shown). */
import { ScrollArea, Table, Text } from '@mantine/core';
import { formatNumber } from '../../components/format';

export interface LineProblem {
  line: number;
  column?: string;
  message: string;
}

/** Enough to fix a file; the rest are in the file of failed rows. */
const SHOWN = 200;

export function ProblemTable({ problems, label }: { problems: LineProblem[]; label: string }) {
  return (
    <>
      <ScrollArea.Autosize mah={360}>
        <Table
          withTableBorder
          striped
          verticalSpacing={4}
          aria-label={label}
          data-testid="import-problems"
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={80}>Line</Table.Th>
              <Table.Th w={160}>Column</Table.Th>
              <Table.Th>Problem</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {problems.slice(0, SHOWN).map((problem, index) => (
              <Table.Tr key={index} data-line={problem.line}>
                <Table.Td>{problem.line}</Table.Td>
                <Table.Td>{problem.column ?? '—'}</Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{problem.message}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
      {problems.length > SHOWN && (
        <Text size="sm" c="dimmed">
          The first {SHOWN} of {formatNumber(problems.length)} problems; the file of failed rows has
          them all.
        </Text>
      )}
    </>
  );
}
