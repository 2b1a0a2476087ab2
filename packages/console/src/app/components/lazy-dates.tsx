/**
 * The date inputs of `@mantine/dates`, loaded the first time one is drawn: the first screen (a
 * collection's list) does not need them, and they weigh about 70 kB gzipped. Until they arrive
 * the input's place is held by a placeholder of its height. Each has the props of the original.
 */
import { Skeleton } from '@mantine/core';
import { lazy, Suspense, type ComponentType } from 'react';

import type * as DatesInputs from './dates-inputs';

type Inputs = typeof DatesInputs;

function deferred<T extends ComponentType<never>>(pick: (inputs: Inputs) => T): T {
  const Loaded = lazy(() =>
    import('./dates-inputs').then((inputs) => ({
      default: pick(inputs) as unknown as ComponentType<object>,
    })),
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

export const DatePickerInput = deferred((inputs) => inputs.DatePickerInput);
export const DateTimePicker = deferred((inputs) => inputs.DateTimePicker);
