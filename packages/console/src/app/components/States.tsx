import { Alert, Center, Loader } from '@mantine/core';

/** A page waiting for its data. */
export function PageLoader({ label = 'Loading' }: { label?: string }) {
  return (
    <Center h={200}>
      <Loader aria-label={label} />
    </Center>
  );
}

/** The address names a collection the environment's schema does not have. */
export function UnknownCollection({ name }: { name: string | undefined }) {
  return (
    <Alert color="yellow" title="Unknown collection">
      The schema of this environment has no collection named “{name}”.
    </Alert>
  );
}
