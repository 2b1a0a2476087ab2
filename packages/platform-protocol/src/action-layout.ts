/**
 * An action form's layout as the schema file (and so the schema the agent uploads) and the
 * agent's form answers carry it: inputs, separators, HTML blocks, rows and pages.
 */
export type ActionLayoutElement =
  | { component: 'input'; fieldId: string }
  | { component: 'separator' }
  | { component: 'htmlBlock'; content: string }
  | { component: 'row'; fields: { component: 'input'; fieldId: string }[] }
  | {
      component: 'page';
      nextButtonLabel?: string;
      previousButtonLabel?: string;
      elements: ActionLayoutElement[];
    };
