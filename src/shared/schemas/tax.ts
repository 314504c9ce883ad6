/**
 * Tax (issue 26 point 4, decision 0080): whether prices include tax, the author's rates per country and
 * format for the local provider (plus a default), and the tax report. Rates travel as percentages with
 * at most two decimals (20, 5.5); the server keeps hundredths of a percent.
 */
import { z } from 'zod';
import { text } from './common';
import { purchaseFormatSchema } from './checkout';

export const TAX_MESSAGES = {
  rate: 'A rate is a percentage from 0 to 100 with at most two decimals',
  country: 'A country is two letters, such as GB',
  duplicate: (country: string, format: string) => `${country} has two rates for ${format}: keep one`,
  quarter: 'A quarter looks like 2026-Q4',
} as const;

export const countryField = text({ message: TAX_MESSAGES.country })
  .trim()
  .regex(/^[A-Za-z]{2}$/, TAX_MESSAGES.country)
  .transform((v) => v.toUpperCase());

const rateField = z
  .number({ message: TAX_MESSAGES.rate })
  .min(0, TAX_MESSAGES.rate)
  .max(100, TAX_MESSAGES.rate)
  .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, TAX_MESSAGES.rate);

export const taxRateSchema = z.object({ country: countryField, format: purchaseFormatSchema, rate: rateField });
export type TaxRate = z.infer<typeof taxRateSchema>;

/** GET and PUT /api/admin/tax: the setting and the whole table, replaced at once. */
export const taxSettingsSchema = z
  .object({
    /** true: the prices shown include tax (the UK way); false: tax is added at checkout. */
    pricesIncludeTax: z.boolean({ message: 'Say whether prices include tax' }),
    /** The rate of a sale whose country and format have no row. */
    defaultRate: rateField,
    rates: z.array(taxRateSchema).max(2000, 'At most 2000 rates'),
  })
  .superRefine((v, ctx) => {
    const seen = new Set<string>();
    v.rates.forEach((r, i) => {
      const key = `${r.country}:${r.format}`;
      if (seen.has(key)) ctx.addIssue({ code: 'custom', message: TAX_MESSAGES.duplicate(r.country, r.format), path: ['rates', i, 'format'] });
      seen.add(key);
    });
  });
export type TaxSettings = z.infer<typeof taxSettingsSchema>;

/** The same as answered (no transforms: answers are serialized through it). */
export const taxSettingsAnswerSchema = z.object({
  pricesIncludeTax: z.boolean(),
  defaultRate: z.number(),
  rates: z.array(z.object({ country: text(), format: purchaseFormatSchema, rate: z.number() })),
});

/** One row of the tax report: a country, a rate and a quarter, with what was sold net and the tax on it. */
export const taxReportRowSchema = z.object({
  quarter: text(),
  /** Empty when the order named no country. */
  country: text(),
  /** Percent; null for orders taxed by Stripe Tax. */
  rate: z.number().nullable(),
  net: z.number().int(),
  tax: z.number().int(),
  displayNet: text(),
  displayTax: text(),
});
export const taxReportSchema = z.object({
  rows: z.array(taxReportRowSchema),
  net: z.number().int(),
  tax: z.number().int(),
  displayNet: text(),
  displayTax: text(),
});
export type TaxReport = z.infer<typeof taxReportSchema>;

export const taxReportQuerySchema = z.object({
  from: text().regex(/^\d{4}-Q[1-4]$/, TAX_MESSAGES.quarter).optional(),
  to: text().regex(/^\d{4}-Q[1-4]$/, TAX_MESSAGES.quarter).optional(),
});
