import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { LoadState } from '../../components/load-state';
import { JOURNAL_PATH } from '../../lib/admin-paths';
import { entryQuery } from './accounting-api';
import { AccountingPage } from './accounting-layout';
import { EntryCard } from './entry-card';

/** Admin: one journal entry (DESIGN §19), where a manual entry, a reversal and each ledger line lead. */
export function EntryPage() {
  const { id = '' } = useParams();
  const answer = useQuery(entryQuery(id));
  const entry = answer.data?.entry;
  return (
    <AccountingPage
      title={entry ? `Journal entry ${entry.number}` : 'Journal entry'}
      tab="journal"
      actions={
        <Link to={JOURNAL_PATH} className="text-sm font-medium text-indigo-700 hover:underline">
          Back to the journal
        </Link>
      }
    >
      <LoadState
        query={answer}
        what="the journal entry"
        loading="Loading the journal entry..."
        missing="This journal entry does not exist."
      >
        {(data) => <EntryCard entry={data.entry} linked={false} />}
      </LoadState>
    </AccountingPage>
  );
}
