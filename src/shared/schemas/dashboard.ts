import { z } from 'zod';
import { text } from './common';
import { PURCHASE_FORMATS } from '../constants';

/** The dashboard statistics answer of docs/PRODUCT.md, Dashboard, exactly. Revenue is in minor units. */
export const salesByFormatSchema = z.object({
  hardcover: z.number().int(),
  paperback: z.number().int(),
  ebook: z.number().int(),
  audiobook: z.number().int(),
});
export type SalesByFormat = z.infer<typeof salesByFormatSchema>;

export const dashboardStatsSchema = z.object({
  // Decision 0022: totalUsers counts readers' accounts (not admins, not the demo reader); subscribedUsers
  // those of them with an active newsletter subscription; newsletterSubscribers every active subscription,
  // with or without an account (the Subscribers page's count).
  userStats: z.object({
    totalUsers: z.number().int(),
    subscribedUsers: z.number().int(),
    percentSubscribed: z.number(),
    newsletterSubscribers: z.number().int(),
  }),
  salesStats: z.object({
    totalSales: z.number().int(),
    totalRevenue: z.number().int(),
    salesByBook: z.array(
      z.object({
        id: z.number().int(),
        title: text(),
        totalSales: z.number().int(),
        revenue: z.number().int(),
        salesByFormat: salesByFormatSchema,
      }),
    ),
  }),
  contentStats: z.object({
    totalBooks: z.number().int(),
    totalReviews: z.number().int(),
    avgRating: z.number(),
    publishedPosts: z.number().int(),
    totalPosts: z.number().int(),
  }),
  engagementStats: z.object({
    totalActivities: z.number().int(),
    totalDownloads: z.number().int(),
  }),
});
export type DashboardStats = z.infer<typeof dashboardStatsSchema>;

/** Time ranges of the sales chart. */
export const SALES_RANGES = ['30d', '90d', 'all'] as const;
export type SalesRange = (typeof SALES_RANGES)[number];
export const SALES_RANGE_LABELS: Record<SalesRange, string> = {
  '30d': 'Last 30 days',
  '90d': 'Last 90 days',
  all: 'All time',
};

export const salesSeriesQuerySchema = z.object({ range: z.enum(SALES_RANGES).default('30d') });

export const salesSeriesSchema = z.object({
  range: z.enum(SALES_RANGES),
  /** 'day' buckets are YYYY-MM-DD; 'month' buckets are YYYY-MM. */
  bucket: z.enum(['day', 'month']),
  points: z.array(z.object({ period: text(), sales: z.number().int(), revenue: z.number().int() })),
  /** Every purchase format, zero when unsold, in the order of PURCHASE_FORMATS. */
  formats: z.array(
    z.object({ format: z.enum(PURCHASE_FORMATS), sales: z.number().int(), revenue: z.number().int() }),
  ),
});
export type SalesSeries = z.infer<typeof salesSeriesSchema>;
