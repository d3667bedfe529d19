import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useParams, useSearchParams } from 'react-router';
import { buttonClass } from '../../components/button';
import { LoadState } from '../../components/load-state';
import { NOT_NEEDED, together } from '../../components/load-together';
import { PageHeader } from '../../components/page-header';
import { BILLS_PATH, billPath } from '../../lib/admin-paths';
import { useStoreSettings, useTaxRates } from '../../lib/store-settings';
import { BillForm, type BillFormState } from './bill-form';
import { STATUS_LABEL } from './bill-status';
import { accountsQuery, billQuery, purchaseOrderQuery, suppliersQuery } from './bills-api';

/**
 * What every bill form picks from: the suppliers, the accounts and the tax rates; and the store's
 * settings, whose default tax rate a new line starts at.
 */
function useChoices() {
  const suppliers = useQuery(suppliersQuery);
  const accounts = useQuery(accountsQuery);
  const rates = useTaxRates();
  const store = useStoreSettings();
  return { suppliers, accounts, rates, store };
}

const CHOICES = 'the suppliers, accounts and tax rates';

/**
 * Admin: a new supplier's bill (DESIGN §20). `?purchaseOrder=<id>` (a purchase order's "Bill
 * this") fills it from that order: its supplier, and a line per line received and not billed.
 */
export function NewBillPage() {
  const [params] = useSearchParams();
  const orderId = params.get('purchaseOrder') ?? '';
  const { suppliers, accounts, rates, store } = useChoices();
  const order = useQuery({ ...purchaseOrderQuery(orderId), enabled: orderId !== '' });
  const load = together(suppliers, accounts, rates, store, orderId ? order : NOT_NEEDED);
  return (
    <>
      <PageHeader title="New bill">
        <Link to={BILLS_PATH} className={buttonClass('secondary')}>
          Back to Bills
        </Link>
      </PageHeader>
      <LoadState
        query={load}
        what={orderId ? `${CHOICES}, and the purchase order` : CHOICES}
        loading="Loading..."
        missing="That purchase order does not exist."
      >
        {([supplierList, accountList, rateList, settings, orderAnswer]) => (
          <BillForm
            key={orderId}
            bill={null}
            order={orderAnswer?.purchaseOrder}
            suppliers={supplierList.suppliers}
            accounts={accountList.accounts}
            rates={rateList.taxRates}
            defaultTaxRate={settings.store.defaultTaxRate}
          />
        )}
      </LoadState>
    </>
  );
}

/** Admin: a draft bill's editor; once posted or deleted, a bill is no longer changed here. */
export function EditBillPage() {
  const { id = '' } = useParams();
  const location = useLocation();
  const refusal = (location.state as BillFormState)?.refusal ?? null;
  const bill = useQuery(billQuery(id));
  const { suppliers, accounts, rates, store } = useChoices();
  const load = together(bill, suppliers, accounts, rates, store);
  const shown = bill.data?.bill;
  return (
    <>
      <PageHeader title={shown ? `Edit ${shown.number}` : 'Edit bill'}>
        <Link to={shown ? billPath(shown._id) : BILLS_PATH} className={buttonClass('secondary')}>
          {shown ? 'Back to the bill' : 'Back to Bills'}
        </Link>
      </PageHeader>
      <LoadState
        query={load}
        what={`the bill, ${CHOICES}`}
        loading="Loading the bill..."
        missing="This bill does not exist (a draft may have been deleted)."
      >
        {([{ bill: draft }, supplierList, accountList, rateList, settings]) =>
          draft.status === 'draft' ? (
            <BillForm
              key={draft._id}
              bill={draft}
              suppliers={supplierList.suppliers}
              accounts={accountList.accounts}
              rates={rateList.taxRates}
              defaultTaxRate={settings.store.defaultTaxRate}
              refusal={refusal}
            />
          ) : (
            <p className="rounded-lg border border-slate-200 bg-white px-4 py-8 text-center text-sm text-slate-600">
              {draft.number} is {STATUS_LABEL[draft.status].toLowerCase()}: only a draft can be changed.{' '}
              <Link to={billPath(draft._id)} className="text-indigo-700 underline">
                Open the bill
              </Link>
              .
            </p>
          )
        }
      </LoadState>
    </>
  );
}
