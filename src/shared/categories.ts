import { z } from 'zod';
import { MAX, Ok, optionalText, requiredText } from './common';

export const Category = z.object({ _id: z.string(), name: z.string(), description: z.string() });
export type Category = z.infer<typeof Category>;

/** The observed client names the fields formCategory and formDescription. */
export const CategoryInput = z.object({
  formCategory: requiredText(MAX.name, 'Category name'),
  formDescription: optionalText(MAX.description).default(''),
});
export type CategoryInput = z.input<typeof CategoryInput>;

export const CategoryResponse = Ok.extend({ category: Category });
export const CategoryListResponse = Ok.extend({ categories: z.array(Category) });
