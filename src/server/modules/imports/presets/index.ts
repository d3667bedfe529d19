import type { Preset } from './preset';
import { shopifyPreset } from './shopify';
import { squarePreset } from './square';

export type { Preset, PresetReader, PresetRow, StoreLocation } from './preset';

/** The presets (DESIGN §22) by the name the check's `format` gives. */
export const PRESETS = { shopify: shopifyPreset, square: squarePreset } as const satisfies Record<
  string,
  Preset
>;
export type PresetName = keyof typeof PRESETS;

/** The layout a file's headers are in: a preset's, else 'generic'. */
export function guessPreset(headers: readonly string[]): PresetName | 'generic' {
  for (const name of Object.keys(PRESETS) as PresetName[]) if (PRESETS[name].matches(headers)) return name;
  return 'generic';
}
