import type { Preset } from './preset';

/** Shopify's export layout (DESIGN §22). Not yet read: no file is guessed to be in it. */
export const shopifyPreset: Preset = {
  matches: () => false,
  mapping: () => ({}),
  reader: () => ({ row: (_line, cells) => ({ cells: [...cells], warnings: [] }) }),
};
