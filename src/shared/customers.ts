import { z } from 'zod';
import { Email, MAX, Ok, optionalText, requiredText } from './common';
import { PageInfo, PageQuery } from './paging';

/** A customer of the store (DESIGN §11). */
export const Customer = z.object({
  _id: z.string(),
  name: z.string(),
  phone: z.string(),
  email: z.string(),
  address: z.string(),
  note: z.string(),
  createdAt: z.string(),
});
export type Customer = z.infer<typeof Customer>;

export const CustomerInput = z.object({
  name: requiredText(MAX.name, 'Customer name'),
  phone: optionalText(MAX.phone).default(''),
  email: z.union([z.literal(''), Email]).default(''),
  address: optionalText(MAX.address).default(''),
  note: optionalText(MAX.note).default(''),
});
export type CustomerInput = z.input<typeof CustomerInput>;

/**
 * What the customer bought, net of returns: their sales, money spent, and the last sale's time;
 * and the store credit they hold (DESIGN §13).
 */
export const CustomerSummary = z.object({
  sales: z.number().int(),
  totalSpent: z.number(),
  lastPurchaseAt: z.string().nullable(),
  creditBalance: z.number(),
});
export type CustomerSummary = z.infer<typeof CustomerSummary>;

export const CustomerResponse = Ok.extend({ customer: Customer });
export const CustomerDetailResponse = Ok.extend({ customer: Customer, summary: CustomerSummary });
/** search matches every word in the name, phone or email. */
export const CustomerQuery = PageQuery;
export type CustomerQuery = z.input<typeof CustomerQuery>;
export const CustomerListResponse = Ok.extend({ customers: z.array(Customer) }).extend(PageInfo.shape);
export type CustomerListResponse = z.infer<typeof CustomerListResponse>;
