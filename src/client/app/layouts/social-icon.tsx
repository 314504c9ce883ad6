/**
 * Brand marks for the footer. The icon library no longer ships brand logos, so these are small
 * inline SVG paths; decorative only (the link carries the accessible name).
 */
const PATHS: Record<string, string> = {
  X: 'M17.75 3h3.07l-6.7 7.66L22 21h-6.17l-4.83-6.32L5.47 21H2.4l7.17-8.2L2 3h6.33l4.37 5.77L17.75 3Zm-1.08 16.18h1.7L7.4 4.73H5.58l11.09 14.45Z',
  Facebook:
    'M22 12.06C22 6.5 17.52 2 12 2S2 6.5 2 12.06c0 5 3.66 9.15 8.44 9.94v-7.03H7.9v-2.91h2.54V9.85c0-2.52 1.49-3.91 3.78-3.91 1.1 0 2.24.2 2.24.2v2.47h-1.26c-1.24 0-1.63.78-1.63 1.57v1.88h2.78l-.44 2.91h-2.34V22C18.34 21.21 22 17.06 22 12.06Z',
  Goodreads:
    'M15.6 3.5c-.9-1-2.1-1.5-3.6-1.5-3.4 0-5.6 2.9-5.6 6.6 0 3.9 2.2 6.5 5.5 6.5 1.7 0 3-.8 3.8-2.3h.1v2.1c0 2.9-1.4 4.6-4 4.6-1.8 0-3.1-.8-3.5-2.4H7.1c.4 2.4 2.6 3.9 5.5 3.9 3.6 0 5.5-2.1 5.5-6V2.4h-1.4v1.9h-.1c-.3-.3-.6-.6-1-.8Zm-3.5-.2c2.5 0 4.1 2 4.1 5.3 0 3.4-1.6 5.3-4.1 5.3-2.6 0-4.2-2.1-4.2-5.3 0-3.2 1.6-5.3 4.2-5.3Z',
};

export function SocialIcon({ name }: { name: string }) {
  if (name === 'Instagram') {
    // Outlined camera mark: stroke reads better at 16 px than a filled path.
    return (
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="2">
        <rect x="3" y="3" width="18" height="18" rx="5" />
        <circle cx="12" cy="12" r="4" />
        <circle cx="17.5" cy="6.5" r="0.6" fill="currentColor" />
      </svg>
    );
  }
  const d = PATHS[name];
  if (!d) return null;
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="currentColor" fillRule="evenodd">
      <path d={d} />
    </svg>
  );
}
