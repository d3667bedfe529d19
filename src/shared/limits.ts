/**
 * Maximum lengths of text fields (DESIGN §4). Plain numbers, apart from the schemas, so the login
 * page can read them without loading zod.
 */
export const MAX = {
  name: 200,
  email: 254,
  phone: 50,
  address: 500,
  description: 2000,
  code: 64,
  note: 2000,
  password: 200,
} as const;
