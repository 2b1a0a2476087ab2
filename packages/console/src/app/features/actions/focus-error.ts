/**
 * After a refused submit: scrolls the first field in error into view and focuses it, so that an
 * error of a long form is never left off-screen.
 */
export function focusFirstError(container: HTMLElement | null): void {
  // Mantine marks an input in error with aria-invalid; a picker without one shows its error text.
  window.requestAnimationFrame(() => {
    const first = container?.querySelector<HTMLElement>(
      '[aria-invalid="true"], .mantine-InputWrapper-error',
    );
    if (!first) return;
    const input = first.matches('[aria-invalid="true"]')
      ? first
      : first
          .closest('.mantine-InputWrapper-root')
          ?.querySelector<HTMLElement>('input, textarea, button');
    (input ?? first).scrollIntoView({ block: 'center', behavior: 'instant' as ScrollBehavior });
    input?.focus({ preventScroll: true });
  });
}
