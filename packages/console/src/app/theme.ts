import {
  createTheme,
  darken,
  DEFAULT_THEME,
  lighten,
  luminance,
  type CSSVariablesResolver,
} from '@mantine/core';

/** WCAG's contrast ratio of two opaque colours. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** `top` at `opacity` over the opaque `base` (both `#rrggbb`), as `#rrggbb`. */
function over(top: string, opacity: number, base: string): string {
  const channel = (hex: string, index: number) =>
    parseInt(hex.slice(1 + index * 2, 3 + index * 2), 16);
  const mixed = [0, 1, 2].map((index) =>
    Math.round(channel(top, index) * opacity + channel(base, index) * (1 - opacity)),
  );
  return `#${mixed.map((value) => value.toString(16).padStart(2, '0')).join('')}`;
}

/** The luminance where black and white text read the same: above it, black reads better. */
const LUMINANCE_THRESHOLD = 0.179;

/** What normal text needs (WCAG AA, 4.5:1), with a little room for rounding. */
const AA = 4.6;

/**
 * The first colour of `candidates` that reads on `background`, else the last one darkened (light
 * theme) or lightened (dark theme) step by step until it does.
 */
function readableOn(background: string, candidates: string[], scheme: 'light' | 'dark'): string {
  const found = candidates.find((color) => contrastRatio(color, background) >= AA);
  if (found) return found;
  let color = candidates[candidates.length - 1]!;
  for (let step = 0; step < 20 && contrastRatio(color, background) < AA; step += 1) {
    color = scheme === 'light' ? darken(color, 0.05) : lighten(color, 0.05);
  }
  return color;
}

/** The darkest rows text sits on: striped or hovered table rows (gray 1, dark 6). */
const ROW = { light: DEFAULT_THEME.colors.gray[1], dark: DEFAULT_THEME.colors.dark[6] };

/**
 * Text colours of every theme colour that read (4.5:1) in both themes: the light and subtle
 * variants (badges, light buttons, the avatar), the outline variant and `c="<colour>"` text, on the
 * colour's own tinted background over a striped row. Mantine's defaults (shade 6 in light, 4 or
 * 5 in dark) fall under 4.5:1 for most colours. Computed once, from the palette.
 */
export const readableColorVariables: CSSVariablesResolver = (theme) => {
  const light: Record<string, string> = {};
  const dark: Record<string, string> = {};
  const both: Record<string, string> = {};
  for (const [name, shades] of Object.entries(theme.colors)) {
    if (!Array.isArray(shades) || shades.length < 10) continue;
    // A hovered filled button keeps its text readable: Mantine's hover (shade 8 for a filled
    // shade 9) is lighter, under 4.5:1 with white; it moves away from the text colour instead.
    const filled = shades[9]!;
    both[`--mantine-color-${name}-filled-hover`] =
      luminance(filled) > LUMINANCE_THRESHOLD ? lighten(filled, 0.12) : darken(filled, 0.12);
    const onLight = readableOn(
      over(shades[6]!, 0.12, ROW.light),
      [shades[7]!, shades[8]!, shades[9]!],
      'light',
    );
    const onDark = readableOn(
      over(shades[7]!, 0.2, ROW.dark),
      [shades[4]!, shades[3]!, shades[2]!, shades[1]!, shades[0]!],
      'dark',
    );
    for (const variable of ['light-color', 'outline', 'text']) {
      light[`--mantine-color-${name}-${variable}`] = onLight;
      dark[`--mantine-color-${name}-${variable}`] = onDark;
    }
  }
  return {
    variables: both,
    // Secondary text: Mantine's gray 6 and dark 2 fall under 4.5:1 on rows and cards.
    light: { ...light, '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
    dark: { ...dark, '--mantine-color-dimmed': 'var(--mantine-color-dark-1)' },
  };
};

/**
 * The console's theme. Filled buttons and badges use the darkest teal (white on it reads 5:1), and
 * `autoContrast` gives any other filled colour black or white text, whichever reads better (the
 * threshold is the luminance where both read the same).
 */
export const consoleTheme = createTheme({
  primaryColor: 'teal',
  primaryShade: { light: 9, dark: 9 },
  autoContrast: true,
  luminanceThreshold: LUMINANCE_THRESHOLD,
  defaultRadius: 'md',
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  components: {
    Button: { defaultProps: { size: 'sm' } },
    // A clear button is an icon: it says what it does (Select's own is hidden from readers).
    FileInput: { defaultProps: { clearButtonProps: { 'aria-label': 'Remove the file' } } },
    DatePickerInput: { defaultProps: { clearButtonProps: { 'aria-label': 'Clear the date' } } },
    DateTimePicker: { defaultProps: { clearButtonProps: { 'aria-label': 'Clear the date' } } },
    DateInput: { defaultProps: { clearButtonProps: { 'aria-label': 'Clear the date' } } },
  },
});
