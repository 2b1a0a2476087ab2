// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createElement as h } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRecord } from '../../../protocol';
import { EditableCell, type SaveCell } from './EditableCell';
import { InlineConflict, type CellBase } from './use-inline-save';

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

/** Opens the cell's editor, types `value` and presses Enter. */
async function typeAndSave(td: HTMLElement, value: string) {
  fireEvent.doubleClick(td);
  const input = screen.getByRole('textbox');
  fireEvent.change(input, { target: { value } });
  await act(async () => {
    fireEvent.keyDown(input, { key: 'Enter' });
  });
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

  it('shows a value changed since the edit started, and saves mine over the new tag when asked', async () => {
    const bases: (CellBase | undefined)[] = [];
    let refuse = true;
    const save = Object.assign(
      async (_record: AgentRecord, _field: string, _value: unknown, base?: Promise<CellBase>) => {
        bases.push(await base);
        if (refuse) {
          refuse = false;
          throw new InlineConflict('theirs@x', '"t2"');
        }
      },
      { begin: async () => ({ etag: '"t1"', current: 'a@x' }) },
    ) as SaveCell;
    await typeAndSave(cell(save), 'mine@x');
    expect(screen.getByTestId('cell-conflict').textContent).toBe(
      'Changed since you started editing: now “theirs@x”.',
    );
    expect((screen.getByRole('textbox') as HTMLInputElement).value).toBe('mine@x');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Keep mine' }));
    });
    expect(bases).toEqual([
      { etag: '"t1"', current: 'a@x' },
      { etag: '"t2"', current: 'theirs@x' },
    ]);
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('takes their value when asked, without saving', async () => {
    const adopted: unknown[] = [];
    let saves = 0;
    const save = Object.assign(
      async () => {
        saves += 1;
        throw new InlineConflict('theirs@x', '"t2"');
      },
      {
        begin: async () => ({ etag: '"t1"', current: 'a@x' }),
        adopt: (_record: AgentRecord, field: string, value: unknown) =>
          adopted.push([field, value]),
      },
    ) as SaveCell;
    await typeAndSave(cell(save), 'mine@x');
    fireEvent.click(screen.getByRole('button', { name: 'Take theirs' }));
    expect(adopted).toEqual([['email', 'theirs@x']]);
    expect(saves).toBe(1);
    expect(screen.queryByRole('textbox')).toBeNull();
  });
});
