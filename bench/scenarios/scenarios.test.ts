import { describe, expect, it } from 'vitest';
import { SCENARIOS } from '.';

const rowsOf = (scenario: (typeof SCENARIOS)[number]) => scenario.writes ?? [scenario.name];

describe('the benchmark table', () => {
  it('names every row once', () => {
    const names = SCENARIOS.map((scenario) => scenario.name);
    const rows = SCENARIOS.flatMap(rowsOf);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(rows).size).toBe(rows.length);
  });

  it('gives every row a target and a limit, or says it has none', () => {
    for (const scenario of SCENARIOS) {
      expect(scenario.target === null || scenario.target.length > 0, scenario.name).toBe(true);
      expect(scenario.limit === null || scenario.limit.length > 0, scenario.name).toBe(true);
      expect(typeof scenario.run, scenario.name).toBe('function');
    }
  });

  it('names as a limit only a row measured in the same run (or the direct SQL orders)', () => {
    const rows = new Set([...SCENARIOS.flatMap(rowsOf), 'direct SQL']);
    for (const scenario of SCENARIOS)
      if (scenario.limit) expect(rows.has(scenario.limit), `${scenario.name}: ${scenario.limit}`).toBe(true);
  });

  it('runs the stock check after every write and before the import', () => {
    const at = (name: string) => SCENARIOS.findIndex((scenario) => scenario.name.startsWith(name));
    expect(at('stock check')).toBeGreaterThan(at('place order'));
    expect(at('stock check')).toBeGreaterThan(at('receive a'));
    expect(at('stock check')).toBeLessThan(at('dashboard while an import applies'));
  });
});
