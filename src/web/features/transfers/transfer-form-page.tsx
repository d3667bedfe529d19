import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { TRANSFER_STATUS_LABEL } from '../../../shared/transfers';
import { buttonClass } from '../../components/button';
import { LoadState } from '../../components/load-state';
import { PageHeader } from '../../components/page-header';
import { TRANSFERS_PATH, transferPath } from '../../lib/admin-paths';
import { useLocations } from '../../lib/locations';
import { useDocumentTitle } from '../../lib/use-document-title';
import { startFromAddress, startOf, TransferForm } from './transfer-form';
import { transferQuery } from './transfers-api';

/**
 * `/transfers/new` drafts one (from the address's suggestion, if any); `/transfers/:id/edit`
 * changes a draft. A transfer already sent cannot be edited: the page says so and links to it.
 */
export function TransferFormPage() {
  const { id } = useParams();
  const [params] = useSearchParams();
  if (!id) return <NewTransfer params={params} />;
  return <EditTransfer id={id} />;
}

function NewTransfer({ params }: { params: URLSearchParams }) {
  useDocumentTitle('New transfer');
  return (
    <>
      <PageHeader title="New transfer">
        <Link to={TRANSFERS_PATH} className={buttonClass('secondary')}>
          Back to Transfers
        </Link>
      </PageHeader>
      <TransferForm transfer={null} start={startFromAddress(params)} />
    </>
  );
}

function EditTransfer({ id }: { id: string }) {
  const answer = useQuery(transferQuery(id));
  const locations = useLocations();
  const transfer = answer.data?.transfer;
  useDocumentTitle(transfer ? `Edit ${transfer.number}` : 'Edit transfer');
  // Try again asks for all the form needs: the draft, and the locations when they failed too.
  const retry = () => {
    void answer.refetch();
    if (locations.isError) void locations.refetch();
  };
  return (
    <>
      <PageHeader title={transfer ? `Edit ${transfer.number}` : 'Edit transfer'}>
        <Link to={transferPath(id)} className={buttonClass('secondary')}>
          Back to the transfer
        </Link>
      </PageHeader>
      <LoadState
        query={answer}
        what="the transfer"
        loading="Loading the transfer..."
        missing="This transfer does not exist."
        retry={retry}
      >
        {({ transfer: loaded }) =>
          loaded.status === 'draft' ? (
            <TransferForm key={loaded._id} transfer={loaded} start={startOf(loaded)} />
          ) : (
            <p className="rounded-md border border-slate-200 bg-white p-4 text-sm text-slate-700">
              {loaded.number} is {TRANSFER_STATUS_LABEL[loaded.status].toLowerCase()}: only a draft can be
              changed.{' '}
              <Link to={transferPath(loaded._id)} className="text-indigo-700 underline">
                Open {loaded.number}
              </Link>
              .
            </p>
          )
        }
      </LoadState>
    </>
  );
}
