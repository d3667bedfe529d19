import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type Register, TILL_MAX } from '../../../shared/till';
import { buttonClass } from '../../components/button';
import { FormError, NamedOptions, SelectField, TextField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { errorMessage } from '../../lib/api';
import { useLocations } from '../../lib/locations';
import { registersQuery, useSaveRegister } from './till-api';

/**
 * The registers (tills), for admins (DESIGN §13): add one, rename one, and deactivate one that is
 * no longer used (an inactive register cannot be opened; its sessions stay) or activate it again.
 */
export function RegistersPanel() {
  const registers = useQuery(registersQuery);
  return (
    <section aria-labelledby="registers-title" className="mt-10 max-w-2xl space-y-4">
      <h2 id="registers-title" className="text-lg font-semibold text-slate-900">
        Registers
      </h2>
      <AddRegister />
      <LoadState
        query={registers}
        what="the registers"
        loading="Loading registers..."
        isEmpty={(data) => data.registers.length === 0}
        empty="No registers yet: add the first one above."
      >
        {(data) => (
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white shadow-sm">
            {data.registers.map((register) => (
              <RegisterItem key={register._id} register={register} />
            ))}
          </ul>
        )}
      </LoadState>
    </section>
  );
}

/** The active locations, and `keep` (a register's own) even when inactive. */
function useLocationChoices(keep?: string) {
  const locations = useLocations();
  const choices = (locations.data?.locations ?? []).filter(
    (location) => location.active || location._id === keep,
  );
  return { choices, failed: locations.isError, loading: locations.isPending };
}

function AddRegister() {
  const save = useSaveRegister();
  const places = useLocationChoices();
  const [location, setLocation] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  function submit(event: FormEvent) {
    event.preventDefault();
    if (save.isPending) return;
    if (!name.trim()) {
      setError('Give the register a name, like Till 2.');
      return;
    }
    setError(undefined);
    save.mutate(
      { id: null, input: { name: name.trim(), ...(location ? { location } : {}) } },
      { onSuccess: () => setName('') },
    );
  }
  return (
    <form noValidate onSubmit={submit} aria-label="Add a register" className="space-y-2">
      <div className="flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1">
          <TextField
            label="New register"
            placeholder="e.g. Till 2"
            maxLength={TILL_MAX.registerName}
            value={name}
            onChange={(event) => setName(event.target.value)}
            error={error}
            disabled={save.isPending}
          />
        </div>
        <div className="w-full sm:w-48">
          <SelectField
            label="Location"
            value={location}
            onChange={(event) => setLocation(event.target.value)}
            disabled={save.isPending}
            hint={places.failed ? 'Locations could not be loaded.' : undefined}
          >
            <option value="">The default location</option>
            <NamedOptions items={places.choices} />
          </SelectField>
        </div>
        <button type="submit" className={buttonClass('primary')} disabled={save.isPending}>
          {save.isPending ? 'Adding...' : 'Add register'}
        </button>
      </div>
      <FormError>{save.error ? errorMessage(save.error) : null}</FormError>
    </form>
  );
}

/** One register: its name and state, renamed in place, deactivated or activated with one press. */
function RegisterItem({ register }: { register: Register }) {
  const save = useSaveRegister();
  const places = useLocationChoices(register.location._id);
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(register.name);
  const [error, setError] = useState<string | undefined>();

  function rename(event: FormEvent) {
    event.preventDefault();
    if (save.isPending) return;
    if (!name.trim()) {
      setError('A register needs a name.');
      return;
    }
    setError(undefined);
    save.mutate({ id: register._id, input: { name: name.trim() } }, { onSuccess: () => setEditing(false) });
  }

  return (
    <li className="space-y-2 px-4 py-3">
      {editing ? (
        <form noValidate onSubmit={rename} className="flex flex-wrap items-end gap-2">
          <div className="min-w-0 flex-1">
            <TextField
              label={`New name of ${register.name}`}
              maxLength={TILL_MAX.registerName}
              value={name}
              autoFocus
              onChange={(event) => setName(event.target.value)}
              error={error}
              disabled={save.isPending}
            />
          </div>
          <button type="submit" className={buttonClass('primary', 'sm')} disabled={save.isPending}>
            Save
          </button>
          <button
            type="button"
            className={buttonClass('secondary', 'sm')}
            disabled={save.isPending}
            onClick={() => {
              setEditing(false);
              setName(register.name);
              setError(undefined);
              save.reset();
            }}
          >
            Cancel
          </button>
        </form>
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm">
            <span className="font-medium text-slate-900">{register.name}</span>{' '}
            <span
              className={`ml-1 rounded-full px-2 py-0.5 text-xs font-medium ${register.active ? 'bg-green-100 text-green-800' : 'bg-slate-100 text-slate-700'}`}
            >
              {register.active ? 'Active' : 'Inactive'}
            </span>
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <label className="sr-only" htmlFor={`register-location-${register._id}`}>
              Location of {register.name}
            </label>
            <select
              id={`register-location-${register._id}`}
              className="rounded-md border border-slate-300 px-2 py-1 text-sm"
              value={register.location._id}
              disabled={save.isPending || places.loading}
              onChange={(event) => save.mutate({ id: register._id, input: { location: event.target.value } })}
            >
              {places.choices.some((place) => place._id === register.location._id) ? null : (
                <option value={register.location._id}>{register.location.name}</option>
              )}
              <NamedOptions items={places.choices} />
            </select>
            <button
              type="button"
              className={buttonClass('secondary', 'sm')}
              aria-label={`Rename ${register.name}`}
              onClick={() => setEditing(true)}
              disabled={save.isPending}
            >
              Rename
            </button>
            <button
              type="button"
              className={buttonClass('secondary', 'sm')}
              aria-label={`${register.active ? 'Deactivate' : 'Activate'} ${register.name}`}
              onClick={() => save.mutate({ id: register._id, input: { active: !register.active } })}
              disabled={save.isPending}
            >
              {register.active ? 'Deactivate' : 'Activate'}
            </button>
          </div>
        </div>
      )}
      <FormError>{save.error ? errorMessage(save.error) : null}</FormError>
    </li>
  );
}
