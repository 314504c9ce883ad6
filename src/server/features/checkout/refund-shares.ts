/**
 * Shares an amount refunded of a whole payment over its rows, in proportion to what is left of each, so
 * each book and format's revenue drops by its part (decision 0082). Whole pence: the pence that rounding
 * leaves over go to the first rows with room, and no row ever gets more than is left of it.
 */
export function shareOut(amount: number, left: readonly number[]): number[] {
  const total = left.reduce((a, b) => a + b, 0);
  if (total === 0) return left.map(() => 0);
  const give = Math.min(amount, total);
  const shares = left.map((l) => Math.floor((give * l) / total));
  let rest = give - shares.reduce((a, b) => a + b, 0);
  for (let i = 0; rest > 0 && i < shares.length; i += 1) {
    const room = left[i] - shares[i];
    const extra = Math.min(room, rest);
    shares[i] += extra;
    rest -= extra;
  }
  return shares;
}
