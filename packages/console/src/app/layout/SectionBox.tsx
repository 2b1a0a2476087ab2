/**
 * One section of a record page or a form laid out by the team: a bordered box, its title, its
 * fields in two columns (one on a phone). Named by its title for assistive technology.
 */
import { Paper, SimpleGrid, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function SectionBox({
  title,
  as,
  children,
}: {
  title: string | undefined;
  /** `section` on a record page, `fieldset` in a form. */
  as: 'section' | 'fieldset';
  children: ReactNode;
}) {
  return (
    <Paper
      withBorder
      p="md"
      radius="md"
      component={as}
      aria-label={title}
      style={{ margin: 0, minWidth: 0 }}
    >
      {title && (
        <Title order={3} size="h5" mb="sm">
          {title}
        </Title>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
        {children}
      </SimpleGrid>
    </Paper>
  );
}
