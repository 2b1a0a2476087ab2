/**
 * Whether a popup opened from inside `container` is open (a select's options, a date picker,
 * rendered in place): Escape pressed in the container then belongs to that popup.
 */
export function innerPopupOpen(container: HTMLElement): boolean {
  // Kept-mounted popups are hidden with `display: none`: only one laid out counts.
  return [
    ...container.querySelectorAll(
      '.mantine-Popover-dropdown, .mantine-Combobox-dropdown, [role="listbox"]',
    ),
  ].some((element) => element.getClientRects().length > 0);
}
