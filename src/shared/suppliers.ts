import { z } from 'zod';
import { Email, MAX, Ok, optionalText, requiredText } from './common';

export const Supplier = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string(),
});
export type Supplier = z.infer<typeof Supplier>;

export const SupplierInput = z.object({
  name: requiredText(MAX.name, 'Supplier name'),
  email: z.union([z.literal(''), Email]).default(''),
  phone: optionalText(MAX.phone).default(''),
  address: optionalText(MAX.address).default(''),
});
export type SupplierInput = z.input<typeof SupplierInput>;

export const SupplierResponse = Ok.extend({ supplier: Supplier });
export const SupplierListResponse = Ok.extend({ suppliers: z.array(Supplier) });
