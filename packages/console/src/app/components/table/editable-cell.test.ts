// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createElement as h } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRecord } from '../../../protocol';
import { EditableCell, type SaveCell } from './EditableCell';

beforeAll(() => {
  window.matchMedia ??= (() => ({
    matches: false,
    addEventListener() {},
    removeEventListener() {},
  })) as unknown as typeof window.matchMedia;
});
afterEach(cleanup);

const record = {
  id: '1',
  type: 'customers',
  values: { email: 'a@x' },
  toOne: {},
} as unknown as AgentRecord;

function cell(save: SaveCell, opened: AgentRecord[] = []) {
  render(
    h(
      MantineProvider,
      null,
      h(
        'table',
        null,
        h(
          'tbody',
          null,
          h(
            'tr',
            null,
            h(EditableCell, {
              record,
              field: { field: 'email', type: 'String' },
              editor: 'text',
              save,
              onOpen: (opened_: AgentRecord) => opened.push(opened_),
              children: 'a@x',
            }),
          ),
        ),
      ),
    ),
  );
  return screen.getByText('a@x').closest('td')!;
}

describe('EditableCell', () => {
  it('opens on Enter, saves the typed value on Enter and closes', async () => {
    const saved: unknown[] = [];
    const td = cell(async (...args) => {
      saved.push(args.slice(1));
    });
    fireEvent.keyDown(td, { key: 'Enter' });
    const input = screen.getByRole('textbox');
    expect((input as HTMLInputElement).value).toBe('a@x');
    fireEvent.change(input, { target: { value: 'b@x' } });
    await act(async () => {
      fireEvent.keyDown(input, { key: 'Enter' });
    });
    expect(saved).toEqual([['email', 'b@x']]);
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('keeps the typed value and shows the refusal on the cell; Escape cancels', async () => {
    const td = cell(async () => {
      throw new Error('Email must contain “@”.');
    });
    fireEvent.doubleClick(td);
    const input = screen.getByRole('textbox');
    fireEvent.change(input, { target: { value: 'nope' } });
    await act(async () => {
      fireEvent.keyDown(input, { key: 'Enter' });
    });
    expect(screen.getByRole('alert').textContent).toBe('Email must contain “@”.');
    expect((screen.getByRole('textbox') as HTMLInputElement).value).toBe('nope');
    expect(screen.getByRole('textbox').getAttribute('aria-invalid')).toBe('true');
    fireEvent.keyDown(screen.getByRole('textbox'), { key: 'Escape' });
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
