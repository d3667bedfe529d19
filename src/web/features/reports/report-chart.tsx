import { useSyncExternalStore } from 'react';
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import { useCurrency } from '../../lib/store-settings';
import { formatTick, formatValue, type ValueKind } from './report-format';

/** One bar: its name under or beside it, and its figure. */
export type ChartPoint = { label: string; value: number };

const BAR = '#4f46e5'; // indigo-600, the app's accent
const GRID = '#e2e8f0'; // slate-200
const TICK = { fill: '#475569', fontSize: 12 }; // slate-600
const ROW_HEIGHT = 34;
/** Room for the names left of the bars, and how much of a name fits there, on phones and wider. */
const NAMES = { narrow: { width: 96, length: 12 }, wide: { width: 184, length: 22 } };

const WIDE = '(min-width: 640px)';
function subscribe(change: () => void) {
  const query = window.matchMedia(WIDE);
  query.addEventListener('change', change);
  return () => query.removeEventListener('change', change);
}
/** Whether the window is wider than a phone (Tailwind's sm), followed as it changes. */
function useWide(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(WIDE).matches);
}

/** A name left of its bar on one line, cut short with its whole text as a tooltip. */
function NameTick({
  x,
  y,
  payload,
  length,
}: {
  x: number | string;
  y: number | string;
  payload: { value?: unknown };
  length: number;
}) {
  const name = String(payload.value ?? '');
  return (
    <text x={x} y={y} dx={-4} dy="0.355em" textAnchor="end" fill={TICK.fill} fontSize={TICK.fontSize}>
      <title>{name}</title>
      {name.length > length ? `${name.slice(0, length - 1).trimEnd()}…` : name}
    </text>
  );
}

/**
 * A bar chart of one figure: `columns` over time (periods left to right), `rows` for named things
 * (categories, products, people; names down the left, cut short, in full in the tooltip and the
 * table). It fills its container's width and follows it when the window changes. The chart is
 * reachable by keyboard (arrow keys move between bars and show each one's figure); its table,
 * which every report shows beside it, carries the same numbers for screen readers.
 */
export function ReportChart({
  points,
  kind,
  layout,
  title,
  valueName,
}: {
  points: readonly ChartPoint[];
  kind: ValueKind;
  layout: 'columns' | 'rows';
  /** What the chart shows, e.g. "Revenue per day". */
  title: string;
  /** The figure's name in the tooltip, e.g. "Revenue". */
  valueName: string;
}) {
  const rows = layout === 'rows';
  const names = useWide() ? NAMES.wide : NAMES.narrow;
  const height = rows ? Math.max(120, points.length * ROW_HEIGHT + 40) : 280;
  const currency = useCurrency();
  const value = (figure: number) => formatTick(figure, kind, currency);
  return (
    <BarChart
      responsive
      data={points as ChartPoint[]}
      layout={rows ? 'vertical' : 'horizontal'}
      title={title}
      desc="The same figures are in the table with this chart."
      style={{ width: '100%', height }}
      margin={{ top: 8, right: 16, bottom: 4, left: 4 }}
    >
      <CartesianGrid stroke={GRID} vertical={rows} horizontal={!rows} />
      {/* No fragments in a chart: the library looks through its children for the axes. */}
      <XAxis
        type={rows ? 'number' : 'category'}
        dataKey={rows ? undefined : 'label'}
        tickFormatter={rows ? value : undefined}
        tick={TICK}
        stroke={GRID}
        interval={rows ? undefined : 'preserveStartEnd'}
        minTickGap={12}
      />
      <YAxis
        type={rows ? 'category' : 'number'}
        dataKey={rows ? 'label' : undefined}
        tickFormatter={rows ? undefined : value}
        width={rows ? names.width : 'auto'}
        tick={rows ? (tick) => <NameTick {...tick} length={names.length} /> : TICK}
        stroke={GRID}
        interval={rows ? 0 : undefined}
      />
      <Tooltip
        cursor={{ fill: '#eef2ff' }}
        formatter={(figure) => [formatValue(Number(figure), kind, currency), valueName]}
      />
      <Bar dataKey="value" name={valueName} fill={BAR} isAnimationActive={false} maxBarSize={48} />
    </BarChart>
  );
}
