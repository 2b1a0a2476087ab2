/**
 * A tab of fields on a record page: its sections (a titled box each), every field with its label
 * and value — a to-one relation as a link to the related record, a value with the display widget
 * of the team's layout when it gives one (WidgetCell.tsx), else today's value.
 */
import { Paper, SimpleGrid, Text, Title } from '@mantine/core';
import type { CollectionLayout, LayoutSection } from '@canopy/platform-protocol';
import {
  humanize,
  isToOne,
  labelField,
  targetCollection,
  type SchemaCollection,
} from '../../protocol';
import type { AgentRecord } from '../../protocol';
import { RelationLink, Value } from '../components/Value';
import { collectionOf, useDataBase, useSchema } from '../data';
import { WidgetCell } from './WidgetCell';

function FieldValue({
  collection,
  field: name,
  data,
  own,
}: {
  collection: SchemaCollection;
  field: string;
  data: AgentRecord;
  own: CollectionLayout | undefined;
}) {
  const schema = useSchema().data;
  const base = useDataBase();
  const field = collection.fields.find((candidate) => candidate.field === name);
  if (!field) return null;
  if (isToOne(field)) {
    const related = data.toOne[field.field];
    const target = collectionOf(schema, targetCollection(field));
    if (!related) {
      return (
        <Text span c="dimmed" size="sm">
          —
        </Text>
      );
    }
    return (
      <RelationLink
        to={`${base}/${encodeURIComponent(related.type)}/${encodeURIComponent(related.id)}`}
        label={String((target && related.values[labelField(target)]) ?? `#${related.id}`)}
      />
    );
  }
  const value = <Value field={field} value={data.values[field.field]} />;
  const widget = own?.fields?.[name]?.display;
  if (!widget) return value;
  return (
    <WidgetCell
      widget={widget}
      value={data.values[field.field]}
      record={data.values}
      fallback={value}
    />
  );
}

export function RecordSections({
  collection,
  sections,
  data,
  own,
}: {
  collection: SchemaCollection;
  sections: LayoutSection[];
  data: AgentRecord;
  /** The collection's part of the team's layout (display widgets). */
  own: CollectionLayout | undefined;
}) {
  return sections.map((section, index) => (
    <Paper
      key={`${index}:${section.title ?? ''}`}
      withBorder
      p="md"
      radius="md"
      mb="md"
      component="section"
      aria-label={section.title}
    >
      {section.title && (
        <Title order={3} size="h5" mb="sm">
          {section.title}
        </Title>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
        {section.fields.map((field) => (
          <div key={field} data-field={field}>
            <Text size="xs" c="dimmed" fw={600} tt="uppercase" mb={2}>
              {humanize(field)}
            </Text>
            <FieldValue collection={collection} field={field} data={data} own={own} />
          </div>
        ))}
      </SimpleGrid>
    </Paper>
  ));
}
