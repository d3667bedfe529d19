/** Query keys shared by every screen, so a change on one screen refreshes the others. */
export const queryKeys = {
  dashboard: ['dashboard'] as const,
  products: ['products'] as const,
  categories: ['categories'] as const,
  suppliers: ['suppliers'] as const,
  users: ['users'] as const,
  user: (id: string) => ['users', 'one', id] as const,
  orders: ['orders'] as const,
  ordersOf: (userId: string) => ['orders', userId] as const,
};
