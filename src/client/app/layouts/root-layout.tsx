/** Frame of every page: skip link, header, the routed page (its children: lazy, behind Suspense), footer, bar. */
import { memo, Suspense } from 'react';
import type { ComponentType, ReactNode } from 'react';
import { Spinner } from '@client/components/ui/spinner';
import { useImmersive } from '@client/lib/immersive';
import { FloatingBar } from './floating-bar';
import { preloadable } from '@client/lib/preloadable';
import { whenNear } from '@client/lib/when-near';
import { Header } from './header';
import { useRouteEffects } from './use-route-effects';

const FOOTER_ID = 'site-footer';
// Below the fold on every page: its code loads when the reader nears it (at once on a page the browser
// draws itself), and until then the server's footer stands in, links working.
const Footer = preloadable<Record<string, never>>(
  () => import('./footer').then((m) => ({ default: m.Footer as ComponentType<Record<string, never>> })),
  () => whenNear(FOOTER_ID),
);

function PageFallback() {
  return (
    <div className="flex min-h-[60vh] items-center justify-center">
      <Spinner label="Loading page" />
    </div>
  );
}

/**
 * Apart from the layout (memo): the layout draws again when the address changes, e.g. when the browser's
 * `#section` is first read after hydration, and such a redraw reaching the footer while its code is
 * still on the way would make React drop the server's footer and leave the space empty.
 */
const SiteFooter = memo(function SiteFooter() {
  return (
    <div id={FOOTER_ID}>
      <Suspense fallback={null}>
        <Footer />
      </Suspense>
    </div>
  );
});

export function RootLayout({ children }: { children: ReactNode }) {
  useRouteEffects();
  // An open book has the whole screen: no header, footer or floating bar around it.
  const immersive = useImmersive();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-blood-600 px-4 py-2 text-bone-50 focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      {immersive ? null : <Header />}
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <Suspense fallback={<PageFallback />}>
          {children}
        </Suspense>
      </main>
      {immersive ? null : (
        <>
          <SiteFooter />
          <FloatingBar />
        </>
      )}
    </div>
  );
}
