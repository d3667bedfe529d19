/** Hand-drawn 24×24 outline icons (no icon font, no request to another host). */
const PATHS = {
  dashboard: 'M4 4h7v7H4zM13 4h7v4h-7zM13 10h7v10h-7zM4 13h7v7H4z',
  products: 'M3 7l9-4 9 4-9 4-9-4zM3 7v10l9 4 9-4V7M12 11v10',
  categories: 'M4 5h6v6H4zM14 5h6v6h-6zM4 15h6v4H4zM14 15h6v4h-6z',
  orders: 'M6 3h12v18l-3-2-3 2-3-2-3 2zM9 8h6M9 12h6',
  suppliers: 'M3 16V6h11v10M14 10h4l3 3v3h-7M7 19a2 2 0 1 0 0-.01M17 19a2 2 0 1 0 0-.01',
  purchasing: 'M3 4h2l2.4 11h10.2L20 8H6.1M9 20a1 1 0 1 0 0-.01M17 20a1 1 0 1 0 0-.01',
  bills: 'M6 3h9l4 4v14H6zM15 3v4h4M9 11h7M9 15h7M9 7h3',
  reports: 'M4 4v16h16M8 16v-4M12 16V8M16 16v-6',
  sale: 'M3 8V5a1 1 0 0 1 1-1h3M17 4h3a1 1 0 0 1 1 1v3M21 16v3a1 1 0 0 1-1 1h-3M7 20H4a1 1 0 0 1-1-1v-3M7 8v8M10 8v8M13 8v8M17 8v8',
  sales: 'M3 7h18v10H3zM12 10a2 2 0 1 0 0 4 2 2 0 0 0 0-4zM6.5 10v4M17.5 10v4',
  refund: 'M9 14L4 9l5-5M4 9h11a5 5 0 0 1 0 10h-4',
  customers:
    'M3 5h18v14H3zM9 12a2 2 0 1 0 0-4 2 2 0 0 0 0 4zM5.5 16c.5-1.6 1.8-2.4 3.5-2.4s3 .8 3.5 2.4M15 10h3M15 14h3',
  users:
    'M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM2 21c0-4 3-6 7-6s7 2 7 6M16 3.5a4 4 0 0 1 0 7.5M18 15c2.5.5 4 2.5 4 6',
  profile: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21c0-4 3.5-6 8-6s8 2 8 6',
  activity: 'M12 7v5l3 2M3.5 12a8.5 8.5 0 1 0 2.5-6M3 4v4h4',
  check: 'M9 3h6v3H9zM9 4.5H5V21h14V4.5h-4M8.5 13.5l2.5 2.5 4.5-4.5',
  logout: 'M15 4h4v16h-4M10 8l-4 4 4 4M6 12h10',
  menu: 'M4 6h16M4 12h16M4 18h16',
  box: 'M3 7l9-4 9 4-9 4-9-4zM3 7v10l9 4 9-4V7M12 11v10',
  store:
    'M4 10v10h16V10M3 10l2-6h14l2 6zM3 10c0 1.5 1.3 2.5 3 2.5S9 11.5 9 10c0 1.5 1.3 2.5 3 2.5s3-1 3-2.5c0 1.5 1.3 2.5 3 2.5s3-1 3-2.5M10 20v-5h4v5',
  till: 'M4 11h16v9H4zM7 11V5h10v6M9 8h6M8 14.5h2M12 14.5h0M14 14.5h2M8 17h8',
  expiring: 'M6 3h12M6 21h12M7 3c0 4.5 5 6 5 9s-5 4.5-5 9M17 3c0 4.5-5 6-5 9s5 4.5 5 9M9.5 18.5h5',
  transfer: 'M4 8h13l-3-3M20 16H7l3 3',
  stocktake: 'M9 3h6v3H9zM9 4.5H5V21h14V4.5h-4M8 11h2M12 11h4M8 15h2M12 15h4',
  accounting: 'M5 4h11a3 3 0 0 1 3 3v13H8a3 3 0 0 1-3-3zM5 17a3 3 0 0 1 3-3h11M9 8h6M9 11h4',
  tax: 'M19 5L5 19M7.5 9a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3zM16.5 18a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3z',
} as const;

export type IconName = keyof typeof PATHS;

/** An outline icon drawn from one SVG path, in the style of the named icons. */
export function PathIcon({ path, className = 'size-5' }: { path: string; className?: string }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
    >
      <path d={path} />
    </svg>
  );
}

export function Icon({ name, className }: { name: IconName; className?: string }) {
  return <PathIcon path={PATHS[name]} className={className} />;
}
