/** The contact section (docs/PRODUCT.md, Contact): the form beside the author's representation details. */
import type { SiteAnswer } from '@shared/schemas/site';
import { ContactForm } from '@client/features/contact/components/contact-form';
import { HomeSection } from '@client/features/site/components/home-section';

export function ContactSection({ site }: { site: SiteAnswer | undefined }) {
  const content = site?.content;
  return (
    <HomeSection
      id="contact"
      eyebrow="Get in touch"
      title="Contact the Author"
      intro="Media and speaking requests, book-club visits, bulk orders (special pricing from 10 copies) or just a note about the book."
      band
    >
      <div className="grid gap-10 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <div className="rounded-2xl border border-ink-700 bg-ink-950/70 p-6 sm:p-8">
          <ContactForm />
        </div>
        <aside aria-label="Representation" className="space-y-6 text-bone-300">
          <div>
            <h3 className="text-xs font-semibold tracking-[0.2em] text-bone-400 uppercase">Literary agent</h3>
            <p className="mt-2 text-bone-100">{content ? `${content.agent.name}, ${content.agent.agency}` : '…'}</p>
          </div>
          <div>
            <h3 className="text-xs font-semibold tracking-[0.2em] text-bone-400 uppercase">Publisher</h3>
            <p className="mt-2 text-bone-100">{content?.publisher.name ?? '…'}</p>
          </div>
          <div>
            <h3 className="text-xs font-semibold tracking-[0.2em] text-bone-400 uppercase">Press kit</h3>
            <p className="mt-2">For review copies, author photos and cover files, choose “Media Inquiry” and tell us about your outlet.</p>
          </div>
        </aside>
      </div>
    </HomeSection>
  );
}
