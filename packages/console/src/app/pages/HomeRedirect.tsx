import { Text } from '@mantine/core';
import { PageLoader } from '../components/States';
import { Navigate } from 'react-router';
import { useCan, useSchema } from '../data';
import { firstCollection } from '../first-screen';
import { useSession } from '../session';
import { collectionPath, dataBase } from '../data-paths';

/** Opens the first collection the user may browse. */
export function HomeRedirect() {
  const schema = useSchema();
  const can = useCan();
  const { workspace } = useSession();
  if (schema.isPending) return <PageLoader label="Loading the schema" />;
  const first = schema.data && firstCollection(schema.data, can);
  if (!first) return <Text c="dimmed">Choose a collection on the left.</Text>;
  return (
    <Navigate
      replace
      to={collectionPath(dataBase(workspace.project, workspace.environment), first.name)}
    />
  );
}
