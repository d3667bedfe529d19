import { useQuery } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { api } from '../lib/api';
import { mockFetch, renderWithClient } from '../test/helpers';
import { LoadState } from './load-state';

const Things = z.object({ things: z.array(z.string()) });
type Reply = { status?: number; body: unknown };

const ok = (things: string[]): Reply => ({ body: { success: true, things } });
const failing = (status: number, error: string): Reply => ({ status, body: { success: false, error } });

/** Answers each call with the next reply, the last one again when they run out. */
function serve(replies: Reply[]) {
  let next = 0;
  return mockFetch({
    'GET /api/things': () => replies[Math.min(next++, replies.length - 1)] as Reply,
  });
}

function ThingList({ table = false }: { table?: boolean }) {
  const query = useQuery({
    queryKey: ['things'],
    queryFn: ({ signal }) => api('/things', { schema: Things, signal }),
  });
  const state = (
    <LoadState
      query={query}
      what="the things"
      colSpan={table ? 2 : undefined}
      isEmpty={(answer) => answer.things.length === 0}
      empty="No things found."
      missing="There are no things here."
    >
      {(answer) =>
        answer.things.map((thing) =>
          table ? (
            <tr key={thing}>
              <td>{thing}</td>
              <td />
            </tr>
          ) : (
            <p key={thing}>{thing}</p>
          ),
        )
      }
    </LoadState>
  );
  return table ? (
    <table>
      <tbody>{state}</tbody>
    </table>
  ) : (
    <div data-testid="things">{state}</div>
  );
}

describe('LoadState', () => {
  it("says 'Loading...' with role status, then shows the data", async () => {
    serve([ok(['Pen', 'Ink'])]);
    renderWithClient(<ThingList />);
    expect(screen.getByRole('status').textContent).toBe('Loading...');
    expect(await screen.findByText('Ink')).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it("shows the screen's own empty text when the answer is empty", async () => {
    serve([ok([])]);
    renderWithClient(<ThingList />);
    expect(await screen.findByText('No things found.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("shows a failure as the server's sentence with Try again, never as the empty text; Try again loads the data", async () => {
    const { calls } = serve([failing(500, 'The database is resting.'), ok(['Pen'])]);
    renderWithClient(<ThingList />);
    const box = screen.getByTestId('things');
    const alert = await within(box).findByRole('alert');
    expect(alert.textContent).toBe('The things could not be loaded: The database is resting.');
    expect(within(box).queryByText('No things found.')).toBeNull();
    await userEvent.click(within(box).getByRole('button', { name: 'Try again' }));
    expect(await within(box).findByText('Pen')).toBeTruthy();
    expect(within(box).queryByRole('alert')).toBeNull();
    expect(calls).toHaveLength(2);
  });

  it('says it is loading while Try again runs, and fails again with the new sentence', async () => {
    let release = () => {};
    let attempt = 0;
    mockFetch({
      'GET /api/things': async () => {
        attempt += 1;
        if (attempt === 1) return failing(503, 'Down for a moment.');
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return failing(500, 'Still down.');
      },
    });
    renderWithClient(<ThingList />);
    const box = screen.getByTestId('things');
    await within(box).findByRole('alert');
    await userEvent.click(within(box).getByRole('button', { name: 'Try again' }));
    expect(within(box).getByRole('status').textContent).toBe('Loading...');
    expect(within(box).queryByRole('alert')).toBeNull();
    release();
    expect((await within(box).findByRole('alert')).textContent).toBe(
      'The things could not be loaded: Still down.',
    );
  });

  it('says a 404 in its own words, without Try again', async () => {
    serve([failing(404, 'Not found')]);
    renderWithClient(<ThingList />);
    const box = screen.getByTestId('things');
    expect((await within(box).findByRole('alert')).textContent).toBe('There are no things here.');
    expect(within(box).queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('keeps the data shown when a later refresh fails', async () => {
    serve([ok(['Pen']), failing(500, 'The database is resting.')]);
    const { client } = renderWithClient(<ThingList />);
    const box = screen.getByTestId('things');
    await within(box).findByText('Pen');
    await client.refetchQueries({ queryKey: ['things'] });
    expect(within(box).getByText('Pen')).toBeTruthy();
    expect(within(box).queryByText(/could not be loaded/)).toBeNull();
  });

  it('in a table, each state is one row spanning the columns', async () => {
    serve([failing(500, 'The database is resting.'), ok([])]);
    renderWithClient(<ThingList table />);
    const table = screen.getByRole('table');
    const loading = within(table).getByRole('row');
    expect(loading.querySelector('td')?.colSpan).toBe(2);
    expect(loading.textContent).toBe('Loading...');
    await within(table).findByRole('alert');
    const failed = within(table).getByRole('row');
    expect(failed.querySelector('td')?.colSpan).toBe(2);
    await userEvent.click(within(failed).getByRole('button', { name: 'Try again' }));
    const empty = await within(table).findByText('No things found.');
    expect(empty.closest('td')?.colSpan).toBe(2);
  });
});
