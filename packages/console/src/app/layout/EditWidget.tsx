/**
 * A form input drawn with the team's edit widget (EditWidgetInput.tsx), loaded with the first
 * form that uses one: its colour picker and rating stay out of the first screen.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import type { EditWidgetProps } from './EditWidgetInput';

const EditWidgetInput = lazy(() => import('./EditWidgetInput'));

/** `fallback`: what the field shows while the widget loads (the form's plain input). */
export function EditWidget({ fallback, ...props }: EditWidgetProps & { fallback?: ReactNode }) {
  return (
    <Suspense fallback={fallback ?? null}>
      <EditWidgetInput {...props} />
    </Suspense>
  );
}
