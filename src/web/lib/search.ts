/** Keeps the items whose name contains the query, ignoring case and surrounding spaces. */
export function filterByName<T extends { name: string }>(items: readonly T[], query: string): T[] {
  const needle = query.trim().toLocaleLowerCase();
  if (!needle) return [...items];
  return items.filter((item) => item.name.toLocaleLowerCase().includes(needle));
}
