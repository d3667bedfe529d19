import { useState } from 'react';
import { LOCATION_KIND_LABEL, type Location } from '../../../shared/locations';
import { buttonClass } from '../../components/button';
import { FormError } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { PageHeader } from '../../components/page-header';
import { Table, Td, Th } from '../../components/table';
import { errorMessage } from '../../lib/api';
import { useLocations } from '../../lib/locations';
import { notify } from '../../lib/notify';
import { LocationFormModal } from './location-form-modal';
import { useSaveLocation } from './locations-api';

type Editing = { location: Location | null } | null;

/**
 * Admin: the locations (DESIGN §17), shops and stockrooms. A location is never deleted (its
 * movements name it); it is deactivated once nothing is held there, and the server says what
 * still is when it refuses.
 */
export function LocationsPage() {
  const list = useLocations();
  const [editing, setEditing] = useState<Editing>(null);
  return (
    <>
      <PageHeader title="Locations">
        <button
          type="button"
          className={buttonClass('primary')}
          onClick={() => setEditing({ location: null })}
        >
          Add location
        </button>
      </PageHeader>
      <Table caption="Locations">
        <thead>
          <tr>
            <Th>Name</Th>
            <Th>Kind</Th>
            <Th>Address</Th>
            <Th>Status</Th>
            <Th stickyEnd>Actions</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          <LoadState
            query={list}
            what="the locations"
            colSpan={5}
            isEmpty={(data) => data.locations.length === 0}
            empty="No locations yet: add the first one."
          >
            {(data) =>
              data.locations.map((location) => (
                <LocationRow key={location._id} location={location} onEdit={() => setEditing({ location })} />
              ))
            }
          </LoadState>
        </tbody>
      </Table>
      {editing ? <LocationFormModal location={editing.location} onClose={() => setEditing(null)} /> : null}
    </>
  );
}

function LocationRow({ location, onEdit }: { location: Location; onEdit: () => void }) {
  const save = useSaveLocation();
  const toggle = () =>
    save.mutate(
      { id: location._id, input: { active: !location.active } },
      {
        onSuccess: ({ location: saved }) =>
          notify.success(saved.active ? `${saved.name} reactivated.` : `${saved.name} deactivated.`),
      },
    );
  return (
    <tr className="hover:bg-slate-50">
      <Td className="font-medium">{location.name}</Td>
      <Td>{LOCATION_KIND_LABEL[location.kind]}</Td>
      <Td>{location.address}</Td>
      <Td>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-medium ${location.active ? 'bg-green-100 text-green-800' : 'bg-slate-100 text-slate-700'}`}
        >
          {location.active ? 'Active' : 'Inactive'}
        </span>
        <FormError>{save.error ? errorMessage(save.error) : null}</FormError>
      </Td>
      <Td stickyEnd>
        <div className="flex gap-2">
          <button
            type="button"
            className={buttonClass('secondary', 'sm')}
            onClick={onEdit}
            aria-label={`Edit ${location.name}`}
            disabled={save.isPending}
          >
            Edit
          </button>
          <button
            type="button"
            className={buttonClass('secondary', 'sm')}
            onClick={toggle}
            aria-label={`${location.active ? 'Deactivate' : 'Reactivate'} ${location.name}`}
            disabled={save.isPending}
          >
            {location.active ? 'Deactivate' : 'Reactivate'}
          </button>
        </div>
      </Td>
    </tr>
  );
}
