// Seeds data the way any client would: through the real HTTP API of the test server.
import type { z } from 'zod';
import { LoginResponse } from '../../src/shared/auth';
import { CategoryResponse } from '../../src/shared/categories';
import { Ok } from '../../src/shared/common';
import { CustomerResponse } from '../../src/shared/customers';
import { OrderResponse } from '../../src/shared/orders';
import { ProductResponse } from '../../src/shared/products';
import type { Role } from '../../src/shared/roles';
import { SupplierResponse } from '../../src/shared/suppliers';
import { UserResponse } from '../../src/shared/users';
import { SUPER_ADMIN } from './server';

let counter = 0;

/** A short suffix that keeps names and emails unique within one server's database. */
export function unique(): string {
  counter += 1;
  return `${counter}${Math.random().toString(36).slice(2, 5)}`;
}

export type Account = {
  _id: string;
  name: string;
  email: string;
  password: string;
  address: string;
  role: Role;
};

/** One API call with an optional token and JSON body; the answer parsed with the shared schema (a non-2xx throws). */
export async function apiCall<S extends z.ZodType>(
  baseUrl: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  schema: S,
  options: { token?: string; body?: unknown } = {},
): Promise<z.output<S>> {
  const headers: Record<string, string> = {};
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const answer = await fetch(`${baseUrl}/api${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const payload: unknown = await answer.json().catch(() => null);
  if (!answer.ok) {
    throw new Error(`${method} /api${path} answered ${answer.status} ${JSON.stringify(payload)}`);
  }
  return schema.parse(payload);
}

/** apiCall with a token (and a body): what a story asks the API beside its screens. */
export const callAs = <S extends z.ZodType>(
  baseUrl: string,
  token: string,
  method: 'GET' | 'POST',
  path: string,
  schema: S,
  body?: unknown,
): Promise<z.output<S>> => apiCall(baseUrl, method, path, schema, { token, body });

/** GET with a session's token, parsed with the shared schema (a non-2xx throws): what a story reads beside its screens. */
export const read = <T>(
  session: ApiSession,
  path: string,
  schema: { parse: (body: unknown) => T },
): Promise<T> =>
  apiCall(session.baseUrl, 'GET', path, schema as unknown as z.ZodType<T>, { token: session.token });

/** A signed-in API client for one account. */
export class ApiSession {
  constructor(
    readonly baseUrl: string,
    readonly token: string,
  ) {}

  static async signIn(baseUrl: string, email: string, password: string): Promise<ApiSession> {
    const { token } = await apiCall(baseUrl, 'POST', '/auth/login', LoginResponse, {
      body: { email, password },
    });
    return new ApiSession(baseUrl, token);
  }

  static superAdmin(baseUrl: string): Promise<ApiSession> {
    return ApiSession.signIn(baseUrl, SUPER_ADMIN.email, SUPER_ADMIN.password);
  }

  /** Creates an account of the given role (the caller must be allowed to create it). */
  async addUser(role: Role, name: string, address = '12 Market Street'): Promise<Account> {
    const tag = unique();
    const input = {
      name,
      email: `${role.toLowerCase()}-${tag}@shop.test`,
      password: `pass-${tag}-word`,
      address,
      role,
    };
    const { user } = await apiCall(this.baseUrl, 'POST', '/users/add', UserResponse, {
      token: this.token,
      body: input,
    });
    return { ...user, password: input.password };
  }

  async deleteUser(id: string): Promise<void> {
    await apiCall(this.baseUrl, 'DELETE', `/users/${encodeURIComponent(id)}`, Ok, { token: this.token });
  }

  async addCategory(name: string, description = '') {
    const answer = await apiCall(this.baseUrl, 'POST', '/category/add', CategoryResponse, {
      token: this.token,
      body: { formCategory: name, formDescription: description },
    });
    return answer.category;
  }

  async addSupplier(name: string, details: { email?: string; phone?: string; address?: string } = {}) {
    const answer = await apiCall(this.baseUrl, 'POST', '/supplier/add', SupplierResponse, {
      token: this.token,
      body: { name, email: '', phone: '', address: '', ...details },
    });
    return answer.supplier;
  }

  async addProduct(input: {
    name: string;
    price: number;
    stock: number;
    category: string;
    supplier: string;
    description?: string;
    cost?: number;
    reorderPoint?: number;
    reorderQuantity?: number;
    sku?: string;
    barcode?: string;
    /** A tax rate's id; absent: the store's default. */
    taxRate?: string;
    /** DESIGN §15: 'lot' keeps the stock in lots. */
    tracking?: 'none' | 'lot';
  }) {
    const answer = await apiCall(this.baseUrl, 'POST', '/products/add', ProductResponse, {
      token: this.token,
      body: { description: '', ...input },
    });
    return answer.product;
  }

  async addCustomer(input: {
    name: string;
    phone?: string;
    email?: string;
    address?: string;
    note?: string;
  }) {
    const answer = await apiCall(this.baseUrl, 'POST', '/customers', CustomerResponse, {
      token: this.token,
      body: input,
    });
    return answer.customer;
  }

  async deleteProduct(id: string): Promise<void> {
    await apiCall(this.baseUrl, 'DELETE', `/products/${encodeURIComponent(id)}`, Ok, { token: this.token });
  }

  async order(productId: string, quantity: number) {
    const answer = await apiCall(this.baseUrl, 'POST', '/order/add', OrderResponse, {
      token: this.token,
      body: { productId, quantity },
    });
    return answer.order;
  }
}

/** A superAdmin session that also creates a fresh admin, with the admin's own session. */
export async function newAdmin(baseUrl: string, name = `Alex Admin ${unique()}`) {
  const owner = await ApiSession.superAdmin(baseUrl);
  const account = await owner.addUser('admin', name, '1 Head Office Road');
  const session = await ApiSession.signIn(baseUrl, account.email, account.password);
  return { account, session };
}

/** A fresh staff account created by a fresh admin, signed in through the API as well. */
export async function newStaff(baseUrl: string, role: 'salesRep' | 'medicalRep' | 'user', name: string) {
  const { session: admin } = await newAdmin(baseUrl);
  const account = await admin.addUser(role, name, `${unique()} Harbour Lane`);
  const session = await ApiSession.signIn(baseUrl, account.email, account.password);
  return { admin, account, session };
}
