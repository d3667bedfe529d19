import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { Product } from '../../../shared/products';
import { MAX_STOCKTAKE_NOTE, StocktakeInput } from '../../../shared/stocktakes';
import { buttonClass } from '../../components/button';
import { FormError, TextAreaField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { LocationPicker } from '../../components/location-picker';
import { PageHeader } from '../../components/page-header';
import { ProductPicker } from '../../components/product-picker';
import { STOCKTAKES_PATH, stocktakePath } from '../../lib/admin-paths';
import { ApiRequestError, errorMessage } from '../../lib/api';
import { useLocations } from '../../lib/locations';
import { notify } from '../../lib/notify';
import { linesText } from './stocktake-status';
import { categoriesQuery, useCreateStocktake, useKeys } from './stocktakes-api';

/**
 * `/stocktakes/new` (admin): a location (required), the categories to count (none: every product
 * with stock there), products besides, blind or not, a note. The scope is fixed when it is made.
 */
export function NewStocktakePage() {
  const navigate = useNavigate();
  const create = useCreateStocktake();
  const keys = useKeys();
  const locations = useLocations();
  const categories = useQuery(categoriesQuery);
  const [location, setLocation] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [products, setProducts] = useState<Pick<Product, '_id' | 'name'>[]>([]);
  const [blind, setBlind] = useState(false);
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const toggle = (id: string, on: boolean) =>
    setChosen((now) => (on ? [...now, id] : now.filter((one) => one !== id)));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const found: Record<string, string> = {};
    if (!location) found.location = 'Choose the location to count.';
    const input = {
      location,
      categories: chosen,
      products: products.map((one) => one._id),
      blind,
      note: note.trim(),
    };
    const parsed = StocktakeInput.safeParse(input);
    if (!parsed.success)
      for (const issue of parsed.error.issues) found[String(issue.path[0] ?? 'form')] ??= issue.message;
    setErrors(found);
    if (Object.keys(found).length > 0 || !parsed.success) return;
    const key = keys.keyFor(parsed.data);
    try {
      const answer = await create.mutateAsync({ input: parsed.data, key });
      keys.settled();
      notify.success(
        `${answer.stocktake.number} is counting ${linesText(answer.stocktake.lines)} at ${answer.stocktake.location.name}.`,
      );
      navigate(stocktakePath(answer.stocktake._id), { replace: true });
    } catch (error) {
      keys.settled(error);
      if (error instanceof ApiRequestError && error.details.length > 0) {
        const fields: Record<string, string> = {};
        for (const detail of error.details)
          fields[detail.path.replace(/^body[./]/, '').split(/[./]/)[0] ?? 'form'] ??= detail.message;
        setErrors(fields);
      }
      setFormError(errorMessage(error));
    }
  }

  const choices = categories.data?.categories ?? [];
  return (
    <>
      <PageHeader title="New stocktake">
        <Link to={STOCKTAKES_PATH} className={buttonClass('secondary')}>
          Back to Stocktakes
        </Link>
      </PageHeader>
      <form noValidate onSubmit={submit} className="max-w-2xl space-y-6">
        <LoadState query={locations} what="the locations" loading="Loading locations...">
          {() => null}
        </LoadState>
        <div>
          <LocationPicker
            label="Location"
            value={location}
            onChange={setLocation}
            allowAll={location === ''}
            allLabel="Choose a location"
          />
          {errors.location ? <p className="mt-1 text-sm text-red-600">{errors.location}</p> : null}
        </div>
        <fieldset className="rounded-md border border-slate-200 bg-white p-4">
          <legend className="px-1 text-sm font-medium text-slate-700">Categories</legend>
          <p className="mb-3 text-sm text-slate-600">
            Every product of the categories ticked is counted. Tick none and no product below to count every
            product with stock at the location.
          </p>
          <LoadState
            query={categories}
            what="the categories"
            loading="Loading categories..."
            isEmpty={(data) => data.categories.length === 0}
            empty="There are no categories yet: name products below, or count everything."
          >
            {() => (
              <div className="grid gap-2 sm:max-h-64 sm:grid-cols-2 sm:overflow-y-auto">
                {choices.map((category) => (
                  <label
                    key={category._id}
                    className="flex min-h-8 items-center gap-2 text-sm text-slate-800"
                  >
                    <input
                      type="checkbox"
                      className="size-4 rounded border-slate-300"
                      checked={chosen.includes(category._id)}
                      onChange={(event) => toggle(category._id, event.target.checked)}
                    />
                    {category.name}
                  </label>
                ))}
              </div>
            )}
          </LoadState>
          {errors.categories ? <p className="mt-1 text-sm text-red-600">{errors.categories}</p> : null}
        </fieldset>
        <section aria-label="Products" className="space-y-3 rounded-md border border-slate-200 bg-white p-4">
          <ProductPicker
            onPick={(product) =>
              setProducts((now) =>
                now.some((one) => one._id === product._id)
                  ? now
                  : [...now, { _id: product._id, name: product.name }],
              )
            }
            isAdded={(id) => products.some((one) => one._id === id)}
            addedNote="in this stocktake"
            detail={(product) => [product.sku, product.category?.name].filter(Boolean).join(' · ')}
          />
          <p className="text-sm text-slate-600">
            Products named here are counted besides the categories ticked (optional).
          </p>
          {products.length > 0 ? (
            <ul aria-label="Products to count" className="flex flex-wrap gap-2">
              {products.map((product) => (
                <li
                  key={product._id}
                  className="inline-flex items-center gap-1 rounded-full bg-slate-100 py-1 pr-1 pl-3 text-sm"
                >
                  {product.name}
                  <button
                    type="button"
                    aria-label={`Remove ${product.name}`}
                    className="rounded-full px-2 text-slate-500 hover:bg-slate-200 hover:text-slate-900"
                    onClick={() => setProducts((now) => now.filter((one) => one._id !== product._id))}
                  >
                    ×
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
          {errors.products ? <p className="text-sm text-red-600">{errors.products}</p> : null}
        </section>
        <label className="flex items-start gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            className="mt-0.5 size-4 rounded border-slate-300"
            checked={blind}
            onChange={(event) => setBlind(event.target.checked)}
          />
          <span>
            <span className="font-medium">Blind count</span>
            <span className="block text-slate-600">
              The counters do not see how many the records expect; admins still do.
            </span>
          </span>
        </label>
        <TextAreaField
          label="Note"
          value={note}
          maxLength={MAX_STOCKTAKE_NOTE}
          onChange={(event) => setNote(event.target.value)}
          error={errors.note}
          hint="Shown to the counters."
          rows={2}
        />
        <FormError>{formError}</FormError>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Link to={STOCKTAKES_PATH} className={buttonClass('secondary')}>
            Discard
          </Link>
          <button type="submit" className={buttonClass('primary')} disabled={create.isPending}>
            {create.isPending ? 'Starting...' : 'Start stocktake'}
          </button>
        </div>
      </form>
    </>
  );
}
