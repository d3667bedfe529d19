import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderWithClient, signIn, userOf } from '../test/helpers';
import { csvPath, DownloadCsvButton } from './download-csv';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Download CSV', () => {
  it('asks for the view’s filters as CSV, without its page', () => {
    expect(csvPath('/audit?action=created&page=3&pageSize=20')).toBe('/audit?action=created&format=csv');
    expect(csvPath('/products')).toBe('/products?format=csv');
  });

  it('downloads the answer under the file name, signed in, and says so while it waits', async () => {
    signIn(userOf('admin'));
    const { calls } = mockFetch({ 'GET /api/orders-like': () => ({ body: 'id\r\n1\r\n' }) });
    const created = vi.fn(() => 'blob:csv');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      expect(this.download).toBe('orders.csv');
      expect(this.href).toBe('blob:csv');
    });
    renderWithClient(<DownloadCsvButton path="/orders-like?search=pen" filename="orders.csv" />);
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(clicked).toHaveBeenCalledTimes(1));
    expect(calls[0]?.query).toEqual({ search: 'pen', format: 'csv' });
    expect(calls[0]?.headers.Authorization).toMatch(/^Bearer /);
    expect(created).toHaveBeenCalledTimes(1);
  });

  it('a refusal is told in a notice, and nothing is saved', async () => {
    signIn(userOf('admin'));
    mockFetch({
      'GET /api/audit': () => ({
        status: 403,
        body: { success: false, error: 'You are not allowed to do that.' },
      }),
    });
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click');
    renderWithClient(<DownloadCsvButton path="/audit" filename="activity.csv" />);
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(
      await screen.findByText('The CSV could not be downloaded: You are not allowed to do that.'),
    ).toBeTruthy();
    expect(clicked).not.toHaveBeenCalled();
    expect((screen.getByRole('button', { name: 'Download CSV' }) as HTMLButtonElement).disabled).toBe(false);
  });
});
