/** /read/sample: the free first chapter for anyone, in the same reader, ending with "Buy to keep reading". */
import { useQuery } from '@tanstack/react-query';
import { SAMPLE_END_TEXT } from '@shared/constants';
import { buttonClasses } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';
import { Link, useNavigate } from '@client/lib/router';
import { SITE } from '@client/lib/site';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { useImmersivePage } from '@client/lib/immersive';
import { SAMPLE_URL, fetchContent } from '@client/features/reading/api';
import { EpubReader, preloadEpubReader } from '@client/features/reading/components/epub-reader';
import { RoomMessage } from '@client/features/reading/components/room-message';
import { usePrefs } from '@client/features/reading/use-prefs';

export default function ReadSamplePage() {
  useDocumentTitle('Read the first chapter');
  const navigate = useNavigate();
  const [prefs, setPrefs] = usePrefs();
  const sample = useQuery({
    queryKey: [SAMPLE_URL],
    queryFn: ({ signal }) => {
      void preloadEpubReader().catch(() => undefined);
      return fetchContent(SAMPLE_URL, signal);
    },
    retry: false,
  });
  // The sample has the whole screen; an error message keeps the site around it.
  useImmersivePage(!sample.isError);
  if (sample.isError) return <RoomMessage error={sample.error} />;
  const buy = (
    <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-center gap-3 px-4 py-3 text-center">
      <p className="text-bone-200">You have reached the end of the free sample.</p>
      <Link to="/#purchase" className={buttonClasses('primary', 'md')}>
        {SAMPLE_END_TEXT}
      </Link>
    </div>
  );
  return (
    <div className="flex h-dvh flex-col">
      {sample.isPending ? (
        <div className="grid flex-1 place-items-center">
          <Spinner label="Opening the sample" showLabel />
        </div>
      ) : (
        <EpubReader
          file={sample.data}
          startAt={null}
          title={`${SITE.bookTitle}: free sample`}
          backTo={{ href: '/', label: 'Home' }}
          prefs={prefs}
          onPrefsChange={setPrefs}
          onLocation={() => undefined}
          onExternalLink={(href) => {
            // The sample's own "Buy to keep reading" link leads to this site's purchase section.
            const url = new URL(href, window.location.href);
            if (url.hash === '#purchase') navigate('/#purchase');
            else window.open(url.toString(), '_blank', 'noopener,noreferrer');
          }}
          endNote={buy}
        />
      )}
    </div>
  );
}
