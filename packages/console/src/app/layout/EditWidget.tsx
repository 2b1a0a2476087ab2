/**
 * A form input drawn with the team's edit widget (EditWidgetInput.tsx), loaded with the first
 * form that uses one: its colour picker and rating stay out of the first screen.
 */
import { lazy, Suspense } from 'react';
import type { EditWidgetProps } from './EditWidgetInput';

const EditWidgetInput = lazy(() => import('./EditWidgetInput'));

export function EditWidget(props: EditWidgetProps) {
  return (
    <Suspense fallback={null}>
      <EditWidgetInput {...props} />
    </Suspense>
  );
}
