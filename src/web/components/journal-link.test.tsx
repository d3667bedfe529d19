import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { User } from '../../shared/users';
import { SignedInContext } from '../lib/signed-in';
import { userOf } from '../test/helpers';
import { JournalLink } from './journal-link';

function show(user: User | null, props: Parameters<typeof JournalLink>[0]) {
  render(
    <MemoryRouter>
      <SignedInContext.Provider value={user}>
        <JournalLink {...props} />
      </SignedInContext.Provider>
    </MemoryRouter>,
  );
}

describe('a document’s link to its journal entry', () => {
  it('leads an admin to the journal filtered to the document, by its kind when given', () => {
    show(userOf('admin'), { source: 'sale', sourceId: 's 1' });
    expect(screen.getByRole('link', { name: 'Journal entry' }).getAttribute('href')).toBe(
      '/admin-dashboard/accounting/journal?source=sale&sourceId=s+1',
    );
  });

  it('names the document alone when its entries are of two kinds (a session opened and closed)', () => {
    show(userOf('admin'), { sourceId: 'ses1' });
    expect(screen.getByRole('link', { name: 'Journal entry' }).getAttribute('href')).toBe(
      '/admin-dashboard/accounting/journal?sourceId=ses1',
    );
  });

  it('leads to the one entry a document names, in its own words (a bill’s entry and its void)', () => {
    show(userOf('admin'), { entry: { _id: 'e 4', number: 'JE-000004' }, label: 'Void entry JE-000004' });
    expect(screen.getByRole('link', { name: 'Void entry JE-000004' }).getAttribute('href')).toBe(
      '/admin-dashboard/accounting/journal/e%204',
    );
  });

  it('is not there for a role that does not read the books, nor for no one', () => {
    show(userOf('salesRep'), { source: 'refund', sourceId: 'f1' });
    expect(screen.queryByRole('link')).toBeNull();
    show(null, { source: 'refund', sourceId: 'f1' });
    expect(screen.queryByRole('link')).toBeNull();
  });
});
