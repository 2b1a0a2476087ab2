/**
 * The table toolbar's "Import CSV": a link to the collection's import page (ImportPage.tsx,
 * loaded on first use with the CSV parser). Shown to roles that may create in the collection.
 */
import { Button } from '@mantine/core';
import { IconFileImport } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useDataBase } from '../../data';
import { collectionPath } from '../../data-paths';

export function ImportCsvButton({ collection }: { collection: string }) {
  const base = useDataBase();
  return (
    <Button
      component={Link}
      to={collectionPath(base, collection, 'import')}
      variant="default"
      leftSection={<IconFileImport size={16} />}
    >
      Import CSV
    </Button>
  );
}
