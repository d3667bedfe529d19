import { useSearchParams } from 'react-router';
import { LocationPicker } from '../../components/location-picker';
import { PageHeader } from '../../components/page-header';
import { useListAddress } from '../../lib/list-address';
import { CategoryReport } from './category-report';
import { CustomerReport } from './customer-report';
import { ItemReport } from './item-report';
import { NeverSoldReport } from './never-sold-report';
import { ProductReport } from './product-report';
import { RangePicker } from './range-picker';
import {
  type DateRange,
  localDay,
  type RangePreset,
  type ReportView,
  readView,
  withRange,
} from './report-range';
import { ReportTabs } from './report-tabs';
import { SalesReport } from './sales-report';
import { StaffReport } from './staff-report';
import { StockReport } from './stock-report';
import { TaxReport } from './tax-report';

type Setting = 'tab' | 'group' | 'metric' | 'sort' | 'location';

function CurrentReport({
  view,
  set,
  setPage,
}: {
  view: ReportView;
  set: (name: Setting, value: string) => void;
  setPage: (page: number) => void;
}) {
  if (view.tab === 'stock') return <StockReport location={view.location} />;
  if (view.rangeError)
    return (
      <p className="rounded-lg border border-slate-200 bg-white px-4 py-8 text-center text-sm text-slate-600">
        Choose a valid date range to see this report.
      </p>
    );
  const range: DateRange = { from: view.from, to: view.to, location: view.location };
  switch (view.tab) {
    case 'sales':
      return (
        <SalesReport
          range={range}
          group={view.group}
          metric={view.metric}
          onGroup={(group) => set('group', group)}
          onMetric={(metric) => set('metric', metric === 'revenue' ? '' : metric)}
        />
      );
    case 'categories':
      return <CategoryReport range={range} />;
    case 'products':
      return (
        <ProductReport
          range={range}
          sort={view.sort}
          onSort={(sort) => set('sort', sort === 'revenue' ? '' : sort)}
        />
      );
    case 'items':
      return (
        <ItemReport
          range={range}
          sort={view.sort}
          onSort={(sort) => set('sort', sort === 'revenue' ? '' : sort)}
        />
      );
    case 'never-sold':
      return <NeverSoldReport range={range} page={view.page} onPage={setPage} />;
    case 'staff':
      return <StaffReport range={range} />;
    case 'customers':
      return <CustomerReport range={range} />;
    case 'tax':
      return <TaxReport range={range} />;
  }
}

/**
 * Admin: how the store is doing (DESIGN §10). Sales over time come first; the range, the tab and
 * each report's switches live in the address, so reload, Back and a shared link keep the view.
 */
export function ReportsPage() {
  const { params, setFilter, setPage } = useListAddress<Setting>();
  const [, setParams] = useSearchParams();
  const view = readView(params, localDay(new Date()));
  const shown: DateRange = { from: view.from, to: view.to };
  const chooseRange = (choice: { preset: RangePreset } | DateRange) =>
    setParams((current) => withRange(current, choice, shown), { replace: true });

  return (
    <>
      <PageHeader title="Reports" />
      <div className="mb-4">
        <LocationPicker value={view.location} onChange={(location) => setFilter('location', location)} />
      </div>
      <RangePicker view={view} onPreset={(preset) => chooseRange({ preset })} onDates={chooseRange} />
      <ReportTabs current={view.tab} onChange={(tab) => setFilter('tab', tab === 'sales' ? '' : tab)}>
        <CurrentReport view={view} set={setFilter} setPage={setPage} />
      </ReportTabs>
    </>
  );
}
