/** What a basket line is called, and why it cannot be bought: each names the line, so a refusal says which one to fix. */
import { formatLabel, formatPrice } from '@shared/constants';

export const lineName = (title: string, format: string) => `${title} (${formatLabel(format)})`;

export const LINE_PROBLEMS = {
  notOnSale: (name: string) => `${name} is no longer on sale`,
  noFile: (name: string) => `${name} is not available for download yet`,
  owned: (name: string) => `${name} is already in your library`,
  priceChanged: (name: string, from: number, to: number) =>
    `The price of ${name} has changed from ${formatPrice(from)} to ${formatPrice(to)}`,
  /** A bundle would charge a second time for a digital format another line already buys. */
  inBasketTwice: (name: string, part: string) => `${name} holds ${part}, which is already in your basket: remove one of them`,
};

export type LineIssue = keyof typeof LINE_PROBLEMS;
