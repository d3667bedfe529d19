import { useMoney } from '../../lib/store-settings';

/**
 * Over or short in words and colour (never colour alone): "Over by $1.25" in amber, "Short by
 * $0.50" in red, "Exact" in green.
 */
export function DifferenceText({ difference }: { difference: number }) {
  const money = useMoney();
  if (difference === 0) return <span className="font-semibold text-green-800">Exact</span>;
  return difference > 0 ? (
    <span className="font-semibold text-amber-800">Over by {money(difference)}</span>
  ) : (
    <span className="font-semibold text-red-700">Short by {money(-difference)}</span>
  );
}
