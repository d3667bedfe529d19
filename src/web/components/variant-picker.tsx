import { useId } from 'react';
import { isOffered, type VariantGroup } from '../lib/variant-groups';

/**
 * An item's values as buttons, one group per option (DESIGN §22): press a size, then a colour.
 * A value no variant has with the others chosen is greyed but can still be pressed (it clears
 * the choice that rules it out).
 */
export function VariantPicker({
  group,
  chosen,
  onChoose,
}: {
  group: VariantGroup;
  chosen: Record<string, string>;
  onChoose: (chosen: Record<string, string>) => void;
}) {
  const id = useId();
  return (
    <div className="space-y-2">
      {group.options.map((option, index) => (
        // biome-ignore lint/a11y/useSemanticElements: a row of toggle buttons, named by its option
        <div
          key={option.name}
          role="group"
          aria-labelledby={`${id}-${index}`}
          className="flex flex-wrap items-center gap-1.5"
        >
          <span id={`${id}-${index}`} className="mr-1 text-xs font-medium text-slate-600">
            {option.name}
          </span>
          {option.values.map((value) => {
            const pressed = chosen[option.name] === value;
            const offered = isOffered(group, chosen, option.name, value);
            return (
              <button
                key={value}
                type="button"
                aria-pressed={pressed}
                aria-label={`${option.name} ${value}${offered ? '' : ' (not sold with the values chosen)'}`}
                onClick={() => {
                  const next = { ...chosen, [option.name]: value };
                  // A value the others rule out keeps only itself chosen, so a made variant can still be reached.
                  onChoose(offered ? next : { [option.name]: value });
                }}
                className={`rounded-md border px-2.5 py-1 text-sm ${
                  pressed
                    ? 'border-indigo-600 bg-indigo-600 text-white'
                    : offered
                      ? 'border-slate-300 bg-white text-slate-800 hover:bg-slate-50'
                      : 'border-dashed border-slate-300 bg-white text-slate-400'
                }`}
              >
                {value}
              </button>
            );
          })}
        </div>
      ))}
    </div>
  );
}
