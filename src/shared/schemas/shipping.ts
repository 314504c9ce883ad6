/**
 * Shipping zones (issue 26 point 5, decision 0081): the countries a zone ships to, the price of the first
 * print copy and of each further one (pence), and an optional order value from which shipping is free.
 */
import { z } from 'zod';
import { lineText, text } from './common';
import { countryField } from './tax';

export const SHIPPING_MESSAGES = {
  name: 'Give the zone a name (at most 80 characters)',
  countries: 'List at least one country (two letters each, such as GB)',
  price: 'A price is a whole number of pence from 0 to 100000',
  freeOver: 'Free shipping starts at a whole number of pence above 0, or leave it empty',
  zoneNotFound: 'Shipping zone not found',
  countryTaken: (country: string, zone: string) => `${country} is already in the zone ${zone}`,
  chooseCountry: 'Choose the country to ship your printed books to',
  cannotShip: (country: string) =>
    `We do not ship printed books to ${country}. Remove the printed books from your basket or choose another country.`,
} as const;

const penceField = (message: string) => z.number({ message }).int(message).min(0, message).max(100_000, message);

export const shippingZoneInputSchema = z.object({
  name: lineText({ message: SHIPPING_MESSAGES.name }).trim().min(1, SHIPPING_MESSAGES.name).max(80, SHIPPING_MESSAGES.name),
  countries: z
    .array(countryField, { message: SHIPPING_MESSAGES.countries })
    .min(1, SHIPPING_MESSAGES.countries)
    .max(250, SHIPPING_MESSAGES.countries)
    .transform((list) => [...new Set(list)]),
  firstItem: penceField(SHIPPING_MESSAGES.price),
  additionalItem: penceField(SHIPPING_MESSAGES.price),
  freeOver: z
    .number({ message: SHIPPING_MESSAGES.freeOver })
    .int(SHIPPING_MESSAGES.freeOver)
    .positive(SHIPPING_MESSAGES.freeOver)
    .max(10_000_000, SHIPPING_MESSAGES.freeOver)
    .nullish()
    .transform((v) => v ?? null),
});
export type ShippingZoneInput = z.infer<typeof shippingZoneInputSchema>;

export const shippingZoneSchema = z.object({
  id: z.number().int(),
  name: text(),
  countries: z.array(text()),
  firstItem: z.number().int(),
  additionalItem: z.number().int(),
  freeOver: z.number().int().nullable(),
});
export type ShippingZone = z.infer<typeof shippingZoneSchema>;

/** GET /api/shipping/countries: where print can be sent (empty when the author set no zones: anywhere). */
export const shippingCountriesSchema = z.object({ countries: z.array(text()) });
