import { z } from 'zod';
import { text } from './common';
import { SHARE_PLATFORMS } from '../constants';

export const shareSchema = z.object({
  platform: z.enum(SHARE_PLATFORMS, { message: 'Platform must be one of x, facebook or linkedin' }),
});
export type ShareInput = z.infer<typeof shareSchema>;

export const shareAnswerSchema = z.object({
  success: z.boolean(),
  pointsAwarded: z.number().int(),
  message: text(),
});
export type ShareAnswer = z.infer<typeof shareAnswerSchema>;
