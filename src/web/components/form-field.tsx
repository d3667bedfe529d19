import { type ComponentProps, type ReactNode, useId } from 'react';

const CONTROL =
  'block w-full rounded-md border bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 disabled:bg-slate-100 disabled:text-slate-500 read-only:bg-slate-50';

export function controlClass(error?: string) {
  return `${CONTROL} ${error ? 'border-red-500' : 'border-slate-300'}`;
}

type FieldShellProps = { id: string; label: string; error?: string; hint?: string; children: ReactNode };

function FieldShell({ id, label, error, hint, children }: FieldShellProps) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
      {hint && !error ? (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The field's own message (error, else hint) plus anything the caller adds. */
function describedBy(id: string, error?: string, hint?: string, extra?: string) {
  const own = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  const ids = [own, extra].filter(Boolean).join(' ');
  return ids || undefined;
}

type Common = { label: string; error?: string; hint?: string };

export function TextField({
  label,
  error,
  hint,
  id: givenId,
  className = '',
  'aria-describedby': extra,
  ...props
}: Common & ComponentProps<'input'>) {
  const autoId = useId();
  const id = givenId ?? autoId;
  return (
    <FieldShell id={id} label={label} error={error} hint={hint}>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint, extra)}
        className={`${controlClass(error)} ${className}`}
        {...props}
      />
    </FieldShell>
  );
}

export function TextAreaField({
  label,
  error,
  hint,
  id: givenId,
  'aria-describedby': extra,
  ...props
}: Common & ComponentProps<'textarea'>) {
  const autoId = useId();
  const id = givenId ?? autoId;
  return (
    <FieldShell id={id} label={label} error={error} hint={hint}>
      <textarea
        id={id}
        rows={3}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint, extra)}
        className={controlClass(error)}
        {...props}
      />
    </FieldShell>
  );
}

export function SelectField({
  label,
  error,
  hint,
  id: givenId,
  children,
  'aria-describedby': extra,
  ...props
}: Common & ComponentProps<'select'>) {
  const autoId = useId();
  const id = givenId ?? autoId;
  return (
    <FieldShell id={id} label={label} error={error} hint={hint}>
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint, extra)}
        className={controlClass(error)}
        {...props}
      >
        {children}
      </select>
    </FieldShell>
  );
}

/** The label over a box that stands alone (a search, a combobox). */
export function BoxLabel({ htmlFor, children }: { htmlFor: string; children: ReactNode }) {
  return (
    <label htmlFor={htmlFor} className="mb-1 block text-sm font-medium text-slate-700">
      {children}
    </label>
  );
}

/** A select's options: each value, written as its label says. */
export function Options<T extends string>({
  values,
  labels,
}: {
  values: readonly T[];
  labels: Record<T, string>;
}) {
  return values.map((value) => (
    <option key={value} value={value}>
      {labels[value]}
    </option>
  ));
}

/** A select's options for records: each one's name, its id the value. */
export function NamedOptions({ items }: { items: readonly { _id: string; name: string }[] }) {
  return items.map((item) => (
    <option key={item._id} value={item._id}>
      {item.name}
    </option>
  ));
}

/** The search box above a list; the list follows what is typed. */
export function SearchField({
  label = 'Search',
  value,
  onChange,
  placeholder,
  maxLength,
}: {
  label?: string;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  maxLength?: number;
}) {
  const id = useId();
  return (
    <div className="w-full sm:w-72">
      <BoxLabel htmlFor={id}>{label}</BoxLabel>
      <input
        id={id}
        type="search"
        value={value}
        placeholder={placeholder}
        maxLength={maxLength}
        onChange={(event) => onChange(event.target.value)}
        className={controlClass()}
      />
    </div>
  );
}

/** A form-level error (the server's sentence), announced as an alert. */
export function FormError({ children }: { children?: ReactNode }) {
  if (!children) return null;
  return (
    <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
      {children}
    </div>
  );
}
