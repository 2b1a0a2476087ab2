import { Alert, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { humanize } from '../../protocol';
import { CollectionTable } from '../components/CollectionTable';
import { PageLoader, UnknownCollection } from '../components/States';
import { collectionOf, useSchema } from '../data';
import { LiveListNotice } from '../features/live/LiveListNotice';
import { WithFirstSegment } from '../layout/first-segment';

export function CollectionPage() {
  const { collection: name } = useParams();
  const schema = useSchema();
  if (schema.isPending) return <PageLoader label="Loading" />;
  if (schema.isError)
    return (
      <Alert color="red" title="No schema">
        {schema.error.message}
      </Alert>
    );
  const collection = collectionOf(schema.data, name);
  if (!collection) {
    return <UnknownCollection name={name} />;
  }
  return (
    <>
      <LiveListNotice key={`live-${collection.name}`} collection={collection.name} />
      <WithFirstSegment key={collection.name} collection={collection}>
        {(firstSegment) => (
          <CollectionTable
            collection={collection}
            source={{ collection: collection.name }}
            firstSegment={firstSegment}
            title={
              <Title order={2} mr="sm">
                {humanize(collection.name)}
              </Title>
            }
          />
        )}
      </WithFirstSegment>
    </>
  );
}
