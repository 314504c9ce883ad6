import { z } from 'zod';
import { CONTACT_SUBJECTS } from '../contact-subjects';
import { EMAIL_PATTERN, text } from './common';

/** The contact form (docs/PRODUCT.md, Contact): name, email, subject (one of its options) and message. */
export const contactSchema = z.object({
  name: text().trim().min(1, 'Name is required').max(120, 'Name must be at most 120 characters'),
  email: text()
    .trim()
    .min(1, 'Email is required')
    .max(254)
    .regex(EMAIL_PATTERN, 'Please enter a valid email address'),
  subject: z.enum(CONTACT_SUBJECTS, { message: 'Please choose a subject' }),
  message: text().trim().min(1, 'Message is required').max(5000, 'Message must be at most 5000 characters'),
});
export type ContactInput = z.infer<typeof contactSchema>;

export const contactAnswerSchema = z.object({ message: text().optional() });
