import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Import } from '../../../shared/imports';
import { callsTo, importOf, listAnswer, renderImport, SUMMARY, UPLOAD_PATH } from './imports-test-data';

const applied = importOf({
  _id: 'imp-applied',
  fileName: 'northwind-price-list.csv',
  status: 'applied',
  rows: 47,
  processed: 47,
  total: 47,
  summary: { ...SUMMARY, create: 5, update: 40, unchanged: 0, errors: 2 },
  preview: [],
  createdBy: { _id: 'a', name: 'Alex Admin' },
  checkedAt: '2026-11-24T10:14:00.000Z',
  appliedAt: '2026-11-24T10:15:00.000Z',
});
const checked = importOf({
  _id: 'imp-checked',
  fileName: 'new-lines-spring.csv',
  status: 'checked',
  rows: 12,
  summary: { ...SUMMARY, create: 12, update: 0, unchanged: 0, errors: 0 },
  preview: [],
  checkedAt: '2026-11-27T14:03:00.000Z',
});

const list = () => screen.findByRole('list', { name: 'Recent imports' });
const items = async () => within(await list()).getAllByRole('listitem');

describe('the recent imports on the upload step', () => {
  it('lists each import with its status, rows, summary, who and when, linking to it', async () => {
    const failed = importOf({ _id: 'imp-failed', fileName: 'broken.xlsx', status: 'failed', rows: 3 });
    const { calls } = renderImport(UPLOAD_PATH, {
      'GET /api/imports': listAnswer([checked, applied, failed]),
    });
    const [first, second, third] = await items();
    expect(first?.textContent).toContain('new-lines-spring.csv');
    expect(first?.textContent).toContain('Checked');
    expect(first?.textContent).toContain('12 rows · 12 to create, 0 to update, 0 errors');
    expect(second?.textContent).toContain('Applied');
    expect(second?.textContent).toContain('47 rows · 5 created, 40 updated, 2 errors');
    expect(second?.textContent).toContain('by Alex Admin');
    expect(second?.textContent).toMatch(/Applied Nov 24, 2026/);
    expect(third?.textContent).toContain('Stopped');
    const link = within(second as HTMLElement).getByRole('link', { name: 'northwind-price-list.csv' });
    expect(link.getAttribute('href')).toBe('/admin-dashboard/products/import/imp-applied');
    expect(callsTo(calls, 'GET', '/api/imports')[0]?.query).toEqual({ page: '1', pageSize: '10' });
  });

  it('opens an import from the list at its own step', async () => {
    const { router } = renderImport(UPLOAD_PATH, {
      'GET /api/imports': listAnswer([checked]),
      'GET /api/imports/imp-checked': () => ({ body: { success: true, import: checked } }),
      'GET /api/imports/imp-checked/rows': () => ({
        body: { success: true, rows: [], total: 0, page: 1, pageSize: 50 },
      }),
    });
    await userEvent.click(within(await list()).getByRole('link', { name: 'new-lines-spring.csv' }));
    expect(router.state.location.pathname).toBe('/admin-dashboard/products/import/imp-checked');
  });

  it('says so when there are no imports yet', async () => {
    renderImport(UPLOAD_PATH, {});
    expect(await screen.findByText('No imports yet.')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Recent imports' })).toBeNull();
  });

  it('says why the list failed, never as an empty list, and tries again', async () => {
    let fail = true;
    renderImport(UPLOAD_PATH, {
      'GET /api/imports': (call) =>
        fail
          ? { status: 500, body: { success: false, error: 'The database is not answering.' } }
          : listAnswer([applied])(call),
    });
    const alert = await screen.findByText(/The recent imports could not be loaded/);
    expect(alert.textContent).toContain('The database is not answering.');
    expect(screen.queryByText('No imports yet.')).toBeNull();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect((await items()).length).toBe(1);
    expect(screen.queryByText(/could not be loaded/)).toBeNull();
  });

  it('pages through more imports than a page holds', async () => {
    const many: Import[] = Array.from({ length: 13 }, (_, i) =>
      importOf({ _id: `imp-${i}`, fileName: `file-${i}.csv`, preview: [] }),
    );
    const { calls } = renderImport(UPLOAD_PATH, { 'GET /api/imports': listAnswer(many) });
    expect((await items()).length).toBe(10);
    expect(screen.getByText('Showing 1–10 of 13')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: /Next/ }));
    await waitFor(async () => expect((await items()).length).toBe(3));
    expect(screen.getByRole('link', { name: 'file-12.csv' })).toBeTruthy();
    expect(callsTo(calls, 'GET', '/api/imports').at(-1)?.query).toEqual({ page: '2', pageSize: '10' });
  });

  it('asks again every 2 seconds while an import is being applied, and stops once it is done', async () => {
    let polls = 0;
    const { calls } = renderImport(UPLOAD_PATH, {
      'GET /api/imports': (call) => {
        polls += 1;
        const applying = { ...applied, status: 'applying' as const, processed: 20, appliedAt: null };
        return listAnswer([polls === 1 ? applying : applied])(call);
      },
    });
    const [first] = await items();
    expect(first?.textContent).toContain('Applying 20 of 47');
    await waitFor(() => expect(screen.getByText('Applied')).toBeTruthy(), { timeout: 3500 });
    expect(callsTo(calls, 'GET', '/api/imports')).toHaveLength(2);
    // Done: no more asking.
    await new Promise((resolve) => setTimeout(resolve, 2300));
    expect(callsTo(calls, 'GET', '/api/imports')).toHaveLength(2);
  }, 10_000);
});
