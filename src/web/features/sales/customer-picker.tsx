import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type Ref, useEffect, useRef, useState } from 'react';
import { type Customer, CustomerInput } from '../../../shared/customers';
import { buttonClass } from '../../components/button';
import { FormError, TextField } from '../../components/form-field';
import { SearchCombobox } from '../../components/search-combobox';
import { ApiRequestError, errorMessage, refusedAs } from '../../lib/api';
import { SEARCH_DELAY_MS, useDebouncedValue } from '../../lib/use-paged-list';
import { customerMatchesQuery, useAddCustomer, useExistingCustomer } from './sales-api';

/**
 * The sale's customer, optional: found by name, phone or email, or added on the spot with a name
 * and a phone. Once chosen it can be removed again.
 */
export function CustomerPicker({
  customer,
  onChange,
  disabled,
}: {
  customer: Customer | null;
  onChange: (customer: Customer | null) => void;
  disabled: boolean;
}) {
  const [adding, setAdding] = useState(false);
  const removeRef = useRef<HTMLButtonElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const moveFocus = useRef(false);

  // Focus follows the choice: to the chosen customer, back to the search once removed or when
  // the quick add is cancelled.
  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    (customer ? removeRef : searchRef).current?.focus();
  });

  function choose(next: Customer | null) {
    moveFocus.current = true;
    setAdding(false);
    onChange(next);
  }

  if (customer) {
    return (
      <div className="flex items-start justify-between gap-3 rounded-md bg-indigo-50 px-3 py-2 text-sm ring-1 ring-indigo-100">
        <div className="min-w-0">
          <p className="font-medium break-words text-slate-900">{customer.name}</p>
          {customer.phone || customer.email ? (
            <p className="text-slate-600 break-words">{customer.phone || customer.email}</p>
          ) : null}
        </div>
        <button
          ref={removeRef}
          type="button"
          className={buttonClass('ghost', 'sm')}
          onClick={() => choose(null)}
          disabled={disabled}
          aria-label={`Remove customer ${customer.name}`}
        >
          Remove
        </button>
      </div>
    );
  }

  return adding ? (
    <QuickAdd
      onAdded={choose}
      onCancel={() => {
        moveFocus.current = true;
        setAdding(false);
      }}
    />
  ) : (
    <div className="space-y-2">
      <CustomerSearch onPick={choose} inputRef={searchRef} />
      <button
        type="button"
        className={buttonClass('secondary', 'sm')}
        onClick={() => setAdding(true)}
        disabled={disabled}
      >
        Quick add a customer
      </button>
    </div>
  );
}

function CustomerSearch({
  onPick,
  inputRef,
}: {
  onPick: (customer: Customer) => void;
  inputRef: Ref<HTMLInputElement>;
}) {
  const [text, setText] = useState('');
  const search = useDebouncedValue(text.trim(), SEARCH_DELAY_MS);
  const list = useQuery({ ...customerMatchesQuery(search), enabled: search !== '' });
  const waiting = text.trim() !== search || (list.isFetching && list.isPlaceholderData);
  const matches = text.trim() && list.data && !waiting ? list.data.customers : [];

  let status = '';
  if (text.trim()) {
    if (list.isError && !waiting) status = `The customers could not be loaded: ${errorMessage(list.error)}`;
    else if (waiting || list.isPending) status = 'Searching...';
    else if (matches.length === 0) status = 'No customer matches.';
    else status = `${matches.length} ${matches.length === 1 ? 'customer' : 'customers'} found.`;
  }

  return (
    <>
      <SearchCombobox
        label="Find a customer"
        placeholder="Name, phone or email..."
        text={text}
        onText={setText}
        matches={matches}
        renderMatch={(customer) => (
          <>
            <span className="block font-medium text-slate-900">{customer.name}</span>
            {customer.phone || customer.email ? (
              <span className="block text-xs text-slate-500">
                {[customer.phone, customer.email].filter(Boolean).join(' · ')}
              </span>
            ) : null}
          </>
        )}
        onPick={onPick}
        onEnter={(highlighted) => highlighted && onPick(highlighted)}
        status={status}
        inputRef={inputRef}
      />
      {text.trim() && matches.length === 0 && status ? (
        <p aria-hidden="true" className="text-sm text-slate-500">
          {status}
        </p>
      ) : null}
    </>
  );
}

/**
 * A customer added at the counter: a name (required) and a phone; the rest can follow later. One
 * already stored under that name and phone is offered instead (the server refuses a second).
 */
function QuickAdd({ onAdded, onCancel }: { onAdded: (customer: Customer) => void; onCancel: () => void }) {
  const add = useAddCustomer();
  const existing = useExistingCustomer();
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [errors, setErrors] = useState<{ name?: string; phone?: string }>({});

  function submit(event: FormEvent) {
    // The quick-add form sits beside the sale's form, never inside it.
    event.preventDefault();
    event.stopPropagation();
    const parsed = CustomerInput.safeParse({ name, phone });
    if (!parsed.success) {
      const found: { name?: string; phone?: string } = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if ((field === 'name' || field === 'phone') && !found[field]) found[field] = issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    existing.reset();
    add.mutate(parsed.data, { onSuccess: ({ customer }) => onAdded(customer) });
  }

  const serverError = add.error instanceof ApiRequestError && add.error.status === 401 ? null : add.error;
  const duplicate = refusedAs(add.error, 'CUSTOMER_TAKEN') ? add.error.existing : undefined;
  const busy = add.isPending || existing.isPending;

  return (
    <form noValidate onSubmit={submit} aria-label="Quick add a customer" className="space-y-3">
      <TextField
        label="Customer name"
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={errors.name}
        autoComplete="off"
        required
        autoFocus
      />
      <TextField
        label="Phone"
        type="tel"
        value={phone}
        onChange={(event) => setPhone(event.target.value)}
        error={errors.phone}
        autoComplete="off"
      />
      <FormError>{serverError ? errorMessage(serverError) : null}</FormError>
      {existing.isError ? (
        <FormError>{`${duplicate?.name ?? 'The customer'} could not be loaded: ${errorMessage(existing.error)}`}</FormError>
      ) : null}
      {duplicate ? (
        <button
          type="button"
          className={`${buttonClass('primary', 'sm')} w-full`}
          onClick={() => existing.mutate(duplicate._id, { onSuccess: onAdded })}
          disabled={busy}
        >
          {existing.isPending ? 'Loading...' : `Use ${duplicate.name}`}
        </button>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <button
          type="submit"
          className={buttonClass(duplicate ? 'secondary' : 'primary', 'sm')}
          disabled={busy}
        >
          {add.isPending ? 'Adding...' : 'Add customer'}
        </button>
        <button type="button" className={buttonClass('secondary', 'sm')} onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
