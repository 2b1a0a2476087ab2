/**
 * The date inputs of `@mantine/dates`, loaded the first time one is drawn: the first screen (a
 * collection's list) does not need them, and they weigh about 70 kB gzipped. Until they arrive
 * the input's place is held by a placeholder of its height. Each has the props of the original.
 */
import { Skeleton } from '@mantine/core';
import { lazy, Suspense, type ComponentType } from 'react';

/** A component loaded on first draw, with a placeholder of an input's height meanwhile. */
function deferred<T extends ComponentType<never>>(load: () => Promise<T>): T {
  const Loaded = lazy(() =>
    load().then((component) => ({ default: component as unknown as ComponentType<object> })),
  );
  function Deferred(props: object) {
    return (
      <Suspense fallback={<Skeleton h={36} radius="sm" aria-label="Loading the date input" />}>
        <Loaded {...props} />
      </Suspense>
    );
  }
  return Deferred as unknown as T;
}

export const DatePickerInput = deferred(() =>
  import('./dates-inputs').then((inputs) => inputs.DatePickerInput),
);
export const DateTimePicker = deferred(() =>
  import('./dates-inputs').then((inputs) => inputs.DateTimePicker),
);
/** The Console's date input (typed dates, calendar): see TemporalInput.tsx. */
export const TemporalInput = deferred(() =>
  import('./TemporalInput').then((module) => module.TemporalInput),
);
