import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { consoleTheme, contrastRatio, readableColorVariables } from './theme';

const theme = mergeMantineTheme(DEFAULT_THEME, consoleTheme);
const { light, dark } = readableColorVariables(theme);

describe('the theme colours', () => {
  it('give every colour a text shade that reads 4.5:1 on a row of each theme', () => {
    const colors = Object.keys(theme.colors);
    expect(colors.length).toBeGreaterThan(10);
    for (const name of colors) {
      const onLight = light[`--mantine-color-${name}-light-color`]!;
      const onDark = dark[`--mantine-color-${name}-light-color`]!;
      expect(contrastRatio(onLight, theme.colors.gray[1])).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(onDark, theme.colors.dark[6])).toBeGreaterThanOrEqual(4.5);
      expect(light[`--mantine-color-${name}-outline`]).toBe(onLight);
      expect(dark[`--mantine-color-${name}-text`]).toBe(onDark);
    }
  });

  it('dims secondary text with shades that read on rows (gray 7, dark 1)', () => {
    expect(contrastRatio(theme.colors.gray[7], theme.colors.gray[1])).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(theme.colors.dark[1], theme.colors.dark[6])).toBeGreaterThanOrEqual(4.5);
    expect(light['--mantine-color-dimmed']).toBe('var(--mantine-color-gray-7)');
    expect(dark['--mantine-color-dimmed']).toBe('var(--mantine-color-dark-1)');
  });

  it('puts white on the filled teal, which reads 5:1, hovered too', () => {
    expect(contrastRatio('#ffffff', theme.colors.teal[9])).toBeGreaterThanOrEqual(4.5);
    const hover = readableColorVariables(theme).variables['--mantine-color-teal-filled-hover']!;
    expect(contrastRatio('#ffffff', hover)).toBeGreaterThan(
      contrastRatio('#ffffff', theme.colors.teal[9]),
    );
  });
});
