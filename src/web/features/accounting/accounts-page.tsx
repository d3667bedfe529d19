import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { ACCOUNT_TYPES, type Account, AccountInput } from '../../../shared/accounting';
import { buttonClass } from '../../components/button';
import { FormDialog } from '../../components/form-dialog';
import { FormError, Options, SelectField, TextField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { Table, Td, Th } from '../../components/table';
import { ledgerPath } from '../../lib/admin-paths';
import { errorMessage } from '../../lib/api';
import { applyServerFieldErrors } from '../../lib/form-errors';
import { notify } from '../../lib/notify';
import { useMoney } from '../../lib/store-settings';
import { accountsQuery, useCreateAccount, useKeys, useUpdateAccount } from './accounting-api';
import { AccountingPage } from './accounting-layout';
import { BALANCE_NOTE, Badge, NUMBER } from './accounting-parts';
import { TYPE_LABEL } from './accounting-words';

const COLUMNS = 6;

/** On phones a row is a small card: code and name, balance; type and status; its actions. */
const STACKED_ROW =
  'max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:gap-x-3 max-sm:gap-y-1.5 max-sm:px-3 max-sm:py-3';
const STACKED_CELL = 'max-sm:p-0';

const named = (account: Pick<Account, 'code' | 'name'>) => `${account.code} ${account.name}`;

function AccountRow({
  account,
  onRename,
  onActive,
  busy,
}: {
  account: Account;
  onRename: () => void;
  onActive: (active: boolean) => void;
  busy: boolean;
}) {
  const money = useMoney();
  return (
    <tr className={`hover:bg-slate-50 ${account.active ? '' : 'text-slate-500'} ${STACKED_ROW}`}>
      <Td className={`whitespace-nowrap font-mono text-sm max-sm:hidden ${STACKED_CELL}`}>{account.code}</Td>
      <Td className={`min-w-0 font-medium ${STACKED_CELL}`}>
        <Link to={ledgerPath(account._id)} className="text-indigo-700 hover:underline">
          <span className="font-mono sm:hidden">{account.code} </span>
          {account.name}
        </Link>
      </Td>
      <Td className={`whitespace-nowrap text-slate-600 max-sm:col-start-1 max-sm:text-xs ${STACKED_CELL}`}>
        {TYPE_LABEL[account.type]}
      </Td>
      <Td className={`${NUMBER} max-sm:col-start-2 max-sm:row-start-1 ${STACKED_CELL}`}>
        {money(account.balance)}
      </Td>
      <Td className={`max-sm:col-start-2 max-sm:row-start-2 max-sm:text-right ${STACKED_CELL}`}>
        <span className="inline-flex flex-wrap gap-1 max-sm:justify-end">
          {account.active ? <Badge tone="green">Active</Badge> : <Badge>Inactive</Badge>}
          {account.system ? <Badge tone="indigo">System</Badge> : null}
        </span>
      </Td>
      <Td className={`max-sm:col-span-2 ${STACKED_CELL}`}>
        <div className="flex flex-wrap items-center gap-2">
          <button
            type="button"
            className={buttonClass('secondary', 'sm')}
            aria-label={`Rename ${named(account)}`}
            onClick={onRename}
          >
            Rename
          </button>
          {account.system ? (
            <span className="text-xs text-slate-500">Stays active</span>
          ) : (
            <button
              type="button"
              className={buttonClass('secondary', 'sm')}
              aria-label={`${account.active ? 'Deactivate' : 'Reactivate'} ${named(account)}`}
              disabled={busy}
              onClick={() => onActive(!account.active)}
            >
              {account.active ? 'Deactivate' : 'Reactivate'}
            </button>
          )}
        </div>
      </Td>
    </tr>
  );
}

/**
 * Admin: the chart of accounts (DESIGN §19), by code, each with its balance and a link to its
 * ledger; add an account, rename one, deactivate or reactivate one the postings do not use.
 */
export function AccountsPage() {
  const list = useQuery(accountsQuery);
  const update = useUpdateAccount();
  const keys = useKeys();
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState<Account | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);

  function setActive(account: Account, active: boolean) {
    setActionError(null);
    const input = { active };
    const key = keys.keyFor({ id: account._id, input });
    update.mutate(
      { id: account._id, input, key },
      {
        onSuccess: () => {
          keys.settled();
          notify.success(`${named(account)} ${active ? 'reactivated' : 'deactivated'}.`);
        },
        onError: (error) => {
          keys.settled(error);
          setActionError(errorMessage(error));
        },
      },
    );
  }

  return (
    <AccountingPage
      title="Chart of accounts"
      tab="accounts"
      actions={
        <button type="button" className={buttonClass('primary')} onClick={() => setAdding(true)}>
          Add account
        </button>
      }
    >
      <div className="mb-3">
        <FormError>{actionError}</FormError>
      </div>
      <Table caption="Chart of accounts, by code">
        <thead className="max-sm:sr-only">
          <tr>
            <Th>Code</Th>
            <Th>Name</Th>
            <Th>Type</Th>
            <Th className="text-right">Balance</Th>
            <Th>Status</Th>
            <Th>Actions</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          <LoadState
            query={list}
            what="the chart of accounts"
            loading="Loading the chart of accounts..."
            colSpan={COLUMNS}
            isEmpty={(data) => data.accounts.length === 0}
            empty="No accounts yet."
          >
            {(data) =>
              data.accounts.map((account) => (
                <AccountRow
                  key={account._id}
                  account={account}
                  busy={update.isPending}
                  onRename={() => setRenaming(account)}
                  onActive={(active) => setActive(account, active)}
                />
              ))
            }
          </LoadState>
        </tbody>
      </Table>
      <p className="mt-3 text-sm text-slate-600">
        {BALANCE_NOTE} Each account’s name opens its ledger. System accounts are the ones the postings use, so
        they stay active; an inactive account takes no manual entries.
      </p>
      {adding ? <AddAccountDialog onClose={() => setAdding(false)} /> : null}
      {renaming ? <RenameDialog account={renaming} onClose={() => setRenaming(null)} /> : null}
    </AccountingPage>
  );
}

const ADD_FIELDS = ['code', 'name', 'type'] as const;

function AddAccountDialog({ onClose }: { onClose: () => void }) {
  const create = useCreateAccount();
  const keys = useKeys();
  const form = useForm<z.input<typeof AccountInput>, unknown, z.output<typeof AccountInput>>({
    resolver: zodResolver(AccountInput),
    defaultValues: { code: '', name: '', type: 'expense' },
  });
  const {
    register,
    formState: { errors },
  } = form;
  const submit = form.handleSubmit((input) => {
    const key = keys.keyFor(input);
    create.mutate(
      { input, key },
      {
        onSuccess: ({ account }) => {
          keys.settled();
          notify.success(`${named(account)} added.`);
          onClose();
        },
        onError: (error) => {
          keys.settled(error);
          applyServerFieldErrors(error, ADD_FIELDS, form.setError);
        },
      },
    );
  });
  return (
    <FormDialog
      title="Add account"
      onClose={onClose}
      onSubmit={submit}
      saving={create}
      submitLabel="Add account"
    >
      <TextField
        label="Code"
        autoComplete="off"
        maxLength={20}
        hint="Unique: letters, digits, dots or dashes, e.g. 6200."
        error={errors.code?.message}
        {...register('code')}
      />
      <TextField
        label="Name"
        autoComplete="off"
        maxLength={100}
        error={errors.name?.message}
        {...register('name')}
      />
      <SelectField label="Type" error={errors.type?.message} {...register('type')}>
        <Options values={ACCOUNT_TYPES} labels={TYPE_LABEL} />
      </SelectField>
    </FormDialog>
  );
}

const Rename = z.object({ name: AccountInput.shape.name });

function RenameDialog({ account, onClose }: { account: Account; onClose: () => void }) {
  const update = useUpdateAccount();
  const keys = useKeys();
  const form = useForm<z.input<typeof Rename>, unknown, z.output<typeof Rename>>({
    resolver: zodResolver(Rename),
    defaultValues: { name: account.name },
  });
  const submit = form.handleSubmit((input) => {
    const key = keys.keyFor({ id: account._id, input });
    update.mutate(
      { id: account._id, input, key },
      {
        onSuccess: ({ account: renamed }) => {
          keys.settled();
          notify.success(`${account.code} is now ${renamed.name}.`);
          onClose();
        },
        onError: (error) => {
          keys.settled(error);
          applyServerFieldErrors(error, ['name'] as const, form.setError);
        },
      },
    );
  });
  return (
    <FormDialog
      title={`Rename ${named(account)}`}
      onClose={onClose}
      onSubmit={submit}
      saving={update}
      submitLabel="Save name"
    >
      <TextField
        label="Name"
        autoComplete="off"
        maxLength={100}
        error={form.formState.errors.name?.message}
        {...form.register('name')}
      />
    </FormDialog>
  );
}
