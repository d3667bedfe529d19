import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import '../test/helpers';
import { Table, Td, Th } from './table';

describe('Table', () => {
  it('keeps the actions column at the right edge at every width, not only on phones', () => {
    render(
      <Table caption="Orders">
        <thead>
          <tr>
            <Th>Product Name</Th>
            <Th stickyEnd>Actions</Th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <Td>Blue Pen</Td>
            <Td stickyEnd>
              <button type="button">Return</button>
            </Td>
          </tr>
        </tbody>
      </Table>,
    );
    const cell = screen.getByRole('button', { name: 'Return' }).closest('td') as HTMLElement;
    const header = screen.getByRole('columnheader', { name: 'Actions' });
    for (const element of [cell, header]) {
      // Unprefixed: sticky from the smallest screen up, so a laptop's wide table keeps it in view.
      expect(element.classList).toContain('sticky');
      expect(element.classList).toContain('right-0');
    }
    // Opaque, so the columns scrolling beneath do not show through.
    expect(cell.classList).toContain('bg-white');
    expect(screen.getByRole('cell', { name: 'Blue Pen' }).classList).not.toContain('sticky');
  });
});
