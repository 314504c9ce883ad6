/** Join class names conditionally; a single place to swap in a merger later if ever needed. */
import { clsx, type ClassValue } from 'clsx';

export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
