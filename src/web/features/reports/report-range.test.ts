import { describe, expect, it } from 'vitest';
import { defaultGroup, presetRange, readView, withRange } from './report-range';

const view = (query: string, today = '2025-05-30') => readView(new URLSearchParams(query), today);

describe('report range presets', () => {
  it('compute their days from today, every range ending today at most', () => {
    const today = '2025-03-15';
    expect(presetRange('today', today)).toEqual({ from: '2025-03-15', to: '2025-03-15' });
    expect(presetRange('last-7-days', today)).toEqual({ from: '2025-03-09', to: '2025-03-15' });
    expect(presetRange('last-30-days', today)).toEqual({ from: '2025-02-14', to: '2025-03-15' });
    expect(presetRange('this-month', today)).toEqual({ from: '2025-03-01', to: '2025-03-15' });
    expect(presetRange('last-month', today)).toEqual({ from: '2025-02-01', to: '2025-02-28' });
    expect(presetRange('this-year', today)).toEqual({ from: '2025-01-01', to: '2025-03-15' });
  });

  it('cross month, year and leap-day edges', () => {
    expect(presetRange('last-month', '2025-01-10')).toEqual({ from: '2024-12-01', to: '2024-12-31' });
    expect(presetRange('last-month', '2024-03-31')).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(presetRange('last-7-days', '2024-03-02')).toEqual({ from: '2024-02-25', to: '2024-03-02' });
    expect(presetRange('last-30-days', '2025-01-05')).toEqual({ from: '2024-12-07', to: '2025-01-05' });
    expect(presetRange('this-month', '2025-01-01')).toEqual({ from: '2025-01-01', to: '2025-01-01' });
  });

  it('group by day up to a month, by week up to half a year, by month beyond', () => {
    expect(defaultGroup({ from: '2025-05-01', to: '2025-05-31' })).toBe('day');
    expect(defaultGroup({ from: '2025-05-01', to: '2025-06-01' })).toBe('week');
    expect(defaultGroup({ from: '2025-01-01', to: '2025-07-02' })).toBe('week');
    expect(defaultGroup({ from: '2025-01-01', to: '2025-07-03' })).toBe('month');
  });
});

describe('the reports view in the address', () => {
  it('is the last 30 days of sales over time by day, revenue first, when the address holds nothing', () => {
    expect(view('')).toMatchObject({
      tab: 'sales',
      preset: 'last-30-days',
      from: '2025-05-01',
      to: '2025-05-30',
      rangeError: null,
      group: 'day',
      groupChosen: false,
      metric: 'revenue',
      sort: 'revenue',
      page: 1,
    });
  });

  it('keeps a preset by name, a custom range by its dates, and a chosen grouping', () => {
    expect(view('range=this-year&group=week&tab=products&sort=margin&metric=units')).toMatchObject({
      preset: 'this-year',
      from: '2025-01-01',
      to: '2025-05-30',
      group: 'week',
      groupChosen: true,
      tab: 'products',
      sort: 'margin',
      metric: 'units',
    });
    expect(view('range=custom&from=2024-01-01&to=2024-12-31')).toMatchObject({
      preset: 'custom',
      from: '2024-01-01',
      to: '2024-12-31',
      group: 'month',
      rangeError: null,
    });
    // A shared link with only dates is a custom range as well.
    expect(view('from=2025-02-01&to=2025-02-10').preset).toBe('custom');
  });

  it('reads anything it does not know as the default', () => {
    expect(view('range=forever&group=hour&tab=secrets&sort=price&metric=joy&page=-2')).toMatchObject({
      preset: 'last-30-days',
      group: 'day',
      groupChosen: false,
      tab: 'sales',
      sort: 'revenue',
      metric: 'revenue',
      page: 1,
    });
  });

  it('says why a custom range cannot be asked for, with the shared rules', () => {
    expect(view('range=custom&from=2025-05-10').rangeError).toBe('Choose both dates.');
    expect(view('range=custom&from=2025-05-10&to=2025-05-01').rangeError).toBe(
      'The from date must be on or before the to date.',
    );
    expect(view('range=custom&from=2020-01-01&to=2023-01-01').rangeError).toBe(
      'A report covers at most 3 years.',
    );
    expect(view('range=custom&from=2025-02-30&to=2025-03-01').rangeError).toBe('That date does not exist.');
  });

  it('choosing a range drops the chosen grouping and the page, and starts a custom range from the days shown', () => {
    const current = new URLSearchParams('tab=never-sold&group=month&page=3&range=this-year');
    const shown = { from: '2025-01-01', to: '2025-05-30' };
    expect(withRange(current, { preset: 'last-7-days' }, shown).toString()).toBe(
      'tab=never-sold&range=last-7-days',
    );
    expect(withRange(current, { preset: 'last-30-days' }, shown).toString()).toBe('tab=never-sold');
    expect(withRange(current, { preset: 'custom' }, shown).toString()).toBe(
      'tab=never-sold&range=custom&from=2025-01-01&to=2025-05-30',
    );
    expect(withRange(current, { from: '2025-02-01', to: '' }, shown).toString()).toBe(
      'tab=never-sold&range=custom&from=2025-02-01',
    );
  });
});
