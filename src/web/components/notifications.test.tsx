import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import '../test/helpers';
import { notify } from '../lib/notify';
import { Notifications } from './notifications';

describe('Notifications', () => {
  it('stack at the bottom of the screen, clear of the page header, and each can be dismissed', async () => {
    render(<Notifications />);
    act(() => {
      notify.error('The products could not be loaded.');
      notify.success('Product added.');
    });
    const area = screen.getByTestId('notifications');
    // The page header's buttons sit at the top; the notices must not lie over them.
    expect(area.classList).toContain('bottom-0');
    expect(area.classList).not.toContain('top-0');
    expect(area.contains(screen.getByRole('alert'))).toBe(true);
    const dismiss = screen.getAllByRole('button', { name: 'Dismiss notification' });
    expect(dismiss).toHaveLength(2);
    await userEvent.click(dismiss[0] as HTMLElement);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('Product added.');
  });
});
