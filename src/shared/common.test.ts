import { describe, expect, it } from 'vitest';
import { DateOnly, dayProblem, rangeProblem } from './common';

describe('a date is a calendar day of years 1900–9999', () => {
  it.each([
    ['2024-02-29', undefined],
    ['1900-01-01', undefined],
    ['9999-12-31', undefined],
    ['2023-02-29', 'That date does not exist.'],
    ['2024-04-31', 'That date does not exist.'],
    ['2024-00-10', 'That date does not exist.'],
    ['2024-01-00', 'That date does not exist.'],
    ['0000-01-01', 'Dates must be between 1900 and 9999.'],
    ['1899-12-31', 'Dates must be between 1900 and 9999.'],
    ['2024-1-5', 'Dates look like 2025-01-31.'],
    ['2024-01-05T00:00', 'Dates look like 2025-01-31.'],
    ['２０２４-01-05', 'Dates look like 2025-01-31.'],
    [20240105, 'Dates must be text.'],
  ])('%j: %s', (value, problem) => {
    expect(dayProblem(value)).toBe(problem);
    const parsed = DateOnly.safeParse(value);
    expect(parsed.success).toBe(problem === undefined);
    if (!parsed.success) expect(parsed.error.issues.map((issue) => issue.message)).toEqual([problem]);
  });

  it('relates from and to only when both are days, so a bad one never throws', () => {
    expect(rangeProblem({ from: '2024-13-01', to: '2024-01-01' }, 3)).toBeUndefined();
    expect(rangeProblem({ from: ['2024-01-01'], to: '2024-01-01' }, 3)).toBeUndefined();
    expect(rangeProblem({ from: '2024-01-02', to: '2024-01-01' })).toBe(
      'The from date must be on or before the to date.',
    );
    expect(rangeProblem({ from: '2021-01-01', to: '2024-01-01' }, 3)).toBe(
      'A report covers at most 3 years.',
    );
    expect(rangeProblem({ from: '2021-01-01', to: '2023-12-31' }, 3)).toBeUndefined();
    expect(rangeProblem({ from: '9998-01-01', to: '9999-12-31' }, 3)).toBeUndefined();
  });
});
