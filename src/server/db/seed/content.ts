/**
 * Original editorial content for the official website of
 * "What We Owe the Dead" by Callum Reyes, and for the upcoming
 * "The Quiet Inheritance". All prose here is original to this project.
 *
 * This module is data only: no runtime imports.
 */

// ---------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------

export interface BookContent {
  title: string;
  tagline: string;
  /** Paragraphs separated by a blank line ("\n\n"). */
  synopsis: string;
  yearPublished: number;
  publisher: string;
  /** Public path of the front-cover image. */
  coverImage: string;
  featured: boolean;
}

export interface UpcomingBookContent extends BookContent {
  featured: false;
  /** Placeholder video id, embedded only when the visitor asks for it. */
  teaserVideoId: string;
}

export interface ReviewContent {
  rating: number;
  text: string;
  author: string;
  /** The reviewer's role, e.g. "Book blogger". */
  title: string;
}

export type BlogPostBook = 'featured' | 'upcoming' | null;

export interface BlogPostContent {
  slug: string;
  title: string;
  /** ISO 8601 timestamp. */
  publishedAt: string;
  authorName: string;
  excerpt: string;
  /** Trusted HTML body (no scripts, no inline styles). */
  content: string;
  tags: string[];
  book: BlogPostBook;
}

export interface HeroQuote {
  text: string;
  source: string;
}

export interface PublisherInfo {
  name: string;
  url: string;
}

export interface AgentInfo {
  name: string;
  agency: string;
}

export interface SocialLinks {
  x: string;
  instagram: string;
  facebook: string;
  goodreads: string;
}

export interface ExcerptContent {
  title: string;
  chapter: string;
  paragraphs: string[];
}

export interface SiteContent {
  siteTitle: string;
  authorName: string;
  authorBio: string[];
  authorPhoto: string;
  heroQuote: HeroQuote;
  heroBlurb: string;
  publisher: PublisherInfo;
  agent: AgentInfo;
  social: SocialLinks;
  excerpt: ExcerptContent;
}

export type PurchaseFormatId = 'hardcover' | 'paperback' | 'ebook' | 'audiobook';

export interface PurchaseFormatContent {
  id: PurchaseFormatId;
  title: string;
  features: string[];
  buttonText: string;
}

export interface GalleryCoverContent {
  id: string;
  title: string;
  description: string;
  image: string;
  alt: string;
}

// ---------------------------------------------------------------------------
// Books
// ---------------------------------------------------------------------------

export const featuredBook: BookContent = {
  title: 'What We Owe the Dead',
  tagline: 'Blood makes you brothers. Loyalty makes you family. Betrayal makes you enemies.',
  synopsis: [
    'Nineteen years ago, on the night of the worst storm the Yorkshire coast had seen in a generation, Danny Ashby and his older brother Michael made a mistake on the coast road above Skelling. Their father, Frank — undertaker, churchwarden, the man the whole town trusted with its grief — made it disappear. By morning a young man named Owen Tranter was a missing person, and the Ashby brothers shared a secret that would bind them together and drive them apart for the rest of their lives.',
    'Danny left within the week and never came back. Now Frank is dead, and Danny returns to the family firm of Ashby & Sons, Funeral Directors, to bury him. Michael has kept the business, and the silence, alive for two decades, and he expects his brother to do what Ashbys have always done: stand at the graveside, shake the right hands and say nothing at all.',
    'But Frank has left Danny a sealed letter and a ledger that does not balance. And Owen’s sister, Leah, now a detective sergeant, has begun asking why an elderly widow buried by Ashby & Sons in the week of the storm went into the ground in a coffin made for a man twice her size. As the town closes ranks and old loyalties begin to curdle, Danny is forced to face what really happened on the coast road — and what his father and brother have been hiding from him ever since.',
    'Taut, atmospheric and devastatingly human, What We Owe the Dead is a thriller about the debts that families hand down, the lies we tell to protect the people we love, and the terrible price of finally telling the truth.',
  ].join('\n\n'),
  yearPublished: 2026,
  publisher: 'Harrow & Vane',
  coverImage: '/images/covers/what-we-owe-the-dead-front.svg',
  featured: true,
};

export const upcomingBook: UpcomingBookContent = {
  title: 'The Quiet Inheritance',
  tagline: 'The money was never the inheritance. The silence was.',
  synopsis: [
    'Nell Garrow finds the people nobody is looking for. As a probate genealogist in London, she traces the forgotten heirs of estates left without a will: the second cousins and lost half-siblings who open their front doors to a stranger and learn that a life they never knew about has ended and left them something. It is patient, unglamorous work, and Nell is very good at it, not least because she has no family of her own to distract her.',
    'Then a case arrives from the Fens. Edith Marrable, ninety-one, has been found dead in the farmhouse she had not left in decades, with three million pounds in the bank and no living relative that anyone in the village of Holme St Agnes will admit to. The deeper Nell digs into parish registers and sealed adoption files, the more the trail bends back towards the year of her own birth — and the more the villagers, polite and smiling and perfectly united, want her gone.',
    'Set among the drowned fields and endless skies of the Cambridgeshire Fens, The Quiet Inheritance is a chilling, intimate thriller about what we are owed by the families we never chose, and what we are prepared to lose to learn where we came from.',
  ].join('\n\n'),
  yearPublished: 2027,
  publisher: 'Harrow & Vane',
  coverImage: '/images/covers/the-quiet-inheritance-front.svg',
  featured: false,
  teaserVideoId: 'Xq3vR8nLw2E',
};

// ---------------------------------------------------------------------------
// Early-reader reviews
// ---------------------------------------------------------------------------

export const reviews: ReviewContent[] = [
  {
    rating: 5,
    text: 'Reyes writes grief the way other thrillers write gunfire: it arrives without warning and leaves nothing standing. The relationship between Danny and Michael is so precisely observed that I kept taking sides, changing my mind, and then refusing to choose at all. The last fifty pages are almost unbearably tense.',
    author: 'Sophie Marchetti',
    title: 'Book blogger',
  },
  {
    rating: 4.5,
    text: 'A slow-burning, salt-stung thriller with real moral weight. The detail of the funeral trade is fascinating without ever tipping into the macabre, and Skelling feels like a town you could find on a map. I guessed one of the twists, but nowhere near the other.',
    author: 'Rhys Pemberton',
    title: 'Independent bookseller',
  },
  {
    rating: 5,
    text: 'The most assured debut I have read in years. Every chapter tightens the knot, yet it is the quiet scenes — two brothers in a cold kitchen, not saying the thing — that grip hardest. Our book club argued about the ending for two hours and still did not agree.',
    author: 'Aisha Conway',
    title: 'Book club organiser',
  },
];

// ---------------------------------------------------------------------------
// Blog posts (newest first)
// ---------------------------------------------------------------------------

export const blogPosts: BlogPostContent[] = [
  {
    slug: 'a-first-look-at-the-quiet-inheritance',
    title: 'A First Look at The Quiet Inheritance',
    publishedAt: '2026-11-05T09:00:00.000Z',
    authorName: 'Callum Reyes',
    excerpt:
      'My second novel has a title, a publication year and a village full of people who would rather you stopped asking questions. Here is a first glimpse.',
    content: `<p>I can finally talk about it. My second novel, <em>The Quiet Inheritance</em>, will be published by Harrow &amp; Vane in 2027, and today I want to share a first glimpse of what it is about and where it came from.</p>
<h2>A different family, the same question</h2>
<p>It is not a sequel. There are no Ashbys in it, and Skelling is a long way off. But it grew from the same soil: the question of what families hand down to us, and what we owe them in return. Where the first book was about a family who kept a secret together, this one is about a woman who discovers that she <em>was</em> the secret.</p>
<p>Nell Garrow is a probate genealogist, an heir hunter. She traces the lost relatives of people who die without a will, and she is very good at it, partly because she has no family of her own. When a reclusive ninety-one-year-old dies in a Fenland farmhouse, leaving a fortune and no known heir, Nell takes the case. The trail leads somewhere she never expected, and to a village that would very much prefer she stopped looking.</p>
<h2>Why the Fens</h2>
<p>I have been fascinated by the Fens for years: that vast, drained, <em>engineered</em> landscape where the sky takes up most of the view and the water is forever being persuaded to stay somewhere else. It felt like the right place for a story about things held down by force.</p>
<blockquote>In Holme St Agnes, nobody lies to you. They simply wait for you to stop asking.</blockquote>
<ul>
<li><strong>Publisher:</strong> Harrow &amp; Vane</li>
<li><strong>Publication:</strong> 2027</li>
<li><strong>Teaser:</strong> a short teaser film is waiting in the Coming Soon section of the home page</li>
</ul>
<p>If you would like to be the first to hear about proofs, the cover reveal and early extracts, join the Thriller Circle newsletter. And if you have not yet met the Ashby brothers, there is still time to <a href="/#purchase">read <em>What We Owe the Dead</em></a> before Nell arrives.</p>`,
    tags: ['The Quiet Inheritance', 'News', 'Second novel'],
    book: 'upcoming',
  },
  {
    slug: 'in-the-booth-recording-the-audiobook',
    title: 'In the Booth: Recording the Audiobook',
    publishedAt: '2026-09-10T09:00:00.000Z',
    authorName: 'Callum Reyes',
    excerpt:
      'Three days in a padded room, one argument about pronunciation and a take none of us will forget: how Declan Moss gave Danny Ashby his voice.',
    content: `<p>There is nothing quite like hearing your own sentences read back to you by someone who understands them better than you do. This summer I spent three days in a small, padded studio in London, listening as the actor Declan Moss brought Danny Ashby to life for the unabridged audiobook of <em>What We Owe the Dead</em>.</p>
<h2>Finding the voice</h2>
<p>Before we recorded a word, we talked about accent. Danny has spent nineteen years in London and has sanded his Yorkshire vowels down to almost nothing; Michael never left, and never tried. Declan suggested that Danny’s accent should creep back as the book goes on, so gradually that you might not notice until the final chapters, when he sounds like a man who has finally come home. <strong>I wish I had thought of it myself.</strong></p>
<h2>Three days in numbers</h2>
<ul>
<li>11 hours and 40 minutes of finished audio</li>
<li>Roughly 420 pages of script, marked up in three colours of pen</li>
<li>One friendly dispute over how to say <em>Skelling</em> (Declan won)</li>
<li>An alarming quantity of throat sweets</li>
</ul>
<p>The hardest passage to record was the one I had found hardest to write: a short, quiet scene late in the book in which Michael talks about their father. Declan read it through once and then asked for a minute. The engineer and I sat in silence on the other side of the glass. The take we kept was the next one.</p>
<blockquote>You don’t perform a scene like that. You just try not to get in its way.</blockquote>
<p>That was Declan’s verdict afterwards, and I have thought about it often since. The audiobook also includes a short bonus conversation between the two of us about voice, place and the sound of the North Sea. You will find it alongside the other editions <a href="/#purchase">on the purchase page</a>.</p>`,
    tags: ['Audiobook', 'Behind the scenes'],
    book: 'featured',
  },
  {
    slug: 'the-road-to-publication',
    title: 'The Road to Publication: A Drawer, a Deadline and a Yes',
    publishedAt: '2026-07-16T09:00:00.000Z',
    authorName: 'Callum Reyes',
    excerpt:
      'Four years of early mornings, three complete drafts and one editorial note that changed everything: the long way round to a debut novel.',
    content: `<p>The first version of this novel lived in a drawer for two years. I mention that not for sympathy but because, when I was starting out, I badly needed to hear that other writers had drawers too.</p>
<h2>Early mornings</h2>
<p>I wrote <em>What We Owe the Dead</em> between five and seven in the morning, before a day job that had nothing to do with books. It took four years and three complete drafts. The first was a crime novel with a detective at its centre; the second was a family saga that forgot it was meant to be a thriller; the third, at last, put the two brothers where they belonged, at the heart of it, with the reader shut in the car beside them.</p>
<h2>Finding an agent</h2>
<p>I queried widely and was turned down widely, which is normal, although it never feels it. Then came an email from Mara Lindqvist at Northlight Literary Agency asking to read the full manuscript. Mara’s first editorial note was a single line, and it changed the book:</p>
<blockquote>Your opening chapter is really your second chapter. Start with Danny getting off the train.</blockquote>
<p>She was right, of course. Six months of revision later the novel went out on submission, and a few weeks after that it found its home at Harrow &amp; Vane, whose editors understood from our very first conversation that this was a book about grief as much as guilt.</p>
<h2>What I would tell my younger self</h2>
<ul>
<li>Finish the draft, even when it is bad. <strong>Especially</strong> when it is bad.</li>
<li>Read your dialogue aloud; the ear catches what the eye forgives.</li>
<li>A rejection is information, not a verdict.</li>
<li>Find one reader you trust, and listen to them when it stings.</li>
</ul>
<p>Holding the finished hardback for the first time was one of the strangest and best moments of my life. If you would like to hold one too, <a href="/#purchase">all four editions are available here</a>. And to anyone with a manuscript in a drawer: take it out again.</p>`,
    tags: ['Publishing', 'Writing life', 'Advice'],
    book: null,
  },
  {
    slug: 'inside-the-family-business',
    title: 'Inside the Family Business: Researching the Undertaker’s Trade',
    publishedAt: '2026-06-04T09:00:00.000Z',
    authorName: 'Callum Reyes',
    excerpt:
      'Before I could write Ashby & Sons, I had to learn what really happens behind a funeral director’s frosted glass. What I found was mostly kindness.',
    content: `<p>Before I could write Ashby &amp; Sons, I had to understand what actually happens behind the frosted window of a funeral director’s. I knew almost nothing, and most of what I thought I knew came from television. So I spent the best part of a year asking questions, politely I hope and often awkwardly, of people who look after the dead for a living.</p>
<h2>What surprised me</h2>
<p>The first surprise was how little of the work is about death at all. It is about logistics, paperwork and, above all, people: the telephone call at three in the morning, the family who cannot agree on a hymn, the widower who wants to know whether his wife may keep her reading glasses on. One funeral director told me the job was “ninety per cent listening and ten per cent lifting”, and I have never heard it put better.</p>
<ul>
<li>Many family firms still keep handwritten registers alongside their computer systems, out of habit and a kind of respect.</li>
<li>The <em>care</em> of the deceased — washing, dressing, preparing — is done with extraordinary tenderness, and is often described as the most important part of the job.</li>
<li>Small-town undertakers were rarely only undertakers; historically many began as joiners, cabinetmakers or builders.</li>
</ul>
<h2>Drawing the line</h2>
<p>I was determined that the novel should never use the dead, or the people who care for them, as props for a cheap shock. Ashby &amp; Sons is a place where something terrible was done, but it is also a place of real skill and decency, and Michael is a genuinely good undertaker even when he is being a bad brother. That contradiction felt true to me.</p>
<blockquote>We are the last people to do anything for them. You don’t get to be careless with that.</blockquote>
<p>A woman said that to me in her immaculate preparation room, and it more or less became Frank Ashby’s creed — which is what makes his one great act of carelessness so devastating. I will say no more, for fear of spoilers, but if you would like to step behind the frosted glass yourself, <a href="/#purchase">the novel is waiting for you</a>.</p>
<p><strong>A note of thanks</strong> to everyone in the profession who gave me their time and trusted me with their stories. Any mistakes, and all of the crimes, are my own.</p>`,
    tags: ['Research', 'Funeral directors', 'What We Owe the Dead'],
    book: 'featured',
  },
  {
    slug: 'on-writing-brothers',
    title: 'On Writing Brothers',
    publishedAt: '2026-04-23T09:00:00.000Z',
    authorName: 'Callum Reyes',
    excerpt:
      'Brothers have a language of their own, and most of it is silence. Why the quietest scenes in the novel turned out to be the most dangerous.',
    content: `<p>I am the younger of two brothers, which is the first thing anyone who knows me mentions when they finish the book, usually with a look. So let me say it plainly: Danny is not me, and Michael is certainly not my brother, who has never hidden anything more incriminating than the last of the biscuits. But I would be lying if I said I had not drawn on something real.</p>
<h2>The language nobody teaches you</h2>
<p>Brothers have a language of their own, and most of it is silence. There is the silence of a shared joke, the silence of a shared blame, the silence of two grown men in a car who both know the other is thinking about their father and will not, under any circumstances, say so. I wanted to write a thriller in which those silences carried as much tension as any chase, where the most dangerous thing that can happen in a scene is that one brother finally says what he means.</p>
<p>While I was drafting, I kept a note pinned above my desk:</p>
<blockquote>Every scene between Danny and Michael is a negotiation. Neither of them knows what the other is prepared to give up.</blockquote>
<h2>Elder and younger</h2>
<p>Much of the book grows out of birth order. Michael is the elder, the one who stayed, who put his name on the sign, learned the trade and became, in the eyes of the town, his father’s son. Danny is the younger, the one who left, who built a careful London life on the understanding that he would never be asked to come back. Each believes the other got the better deal. <em>Both of them are wrong</em>, and finding out why was one of the things I most enjoyed writing.</p>
<ul>
<li><strong>Loyalty is not the same as love.</strong> You can be fiercely loyal to someone you do not much like.</li>
<li><strong>Brothers rarely fight about the thing they are fighting about.</strong> The argument over the business is really an argument about 2007.</li>
<li><strong>Forgiveness in fiction has to be earned</strong>, line by line, or readers will not believe it — and nor should they.</li>
</ul>
<p>If you have a brother, I suspect you will recognise something in the Ashbys. If you do not, I hope the novel lends you one for a while, though you may want to give him back. You can <a href="/#purchase">pick up your copy here</a>.</p>`,
    tags: ['Writing', 'Characters', 'Family'],
    book: 'featured',
  },
  {
    slug: 'where-the-idea-came-from',
    title: 'Where the Idea Came From: A Ledger, a Storm and a Question',
    publishedAt: '2026-03-12T09:00:00.000Z',
    authorName: 'Callum Reyes',
    excerpt:
      'People ask where the idea for the novel came from. The short answer is brothers; the true answer begins with a shelf of leather-bound ledgers.',
    content: `<p>People ask where the idea for <em>What We Owe the Dead</em> came from, and I have learned to give a short answer and a true one, which are not the same thing. The short answer is that I wanted to write about brothers. The true one begins with a ledger.</p>
<h2>A book of names</h2>
<p>Some years ago, while I was still working in insurance claims, a case took me to a small funeral director’s in a coastal town I will not name. The business was closing after four generations, and the last of the family was kind enough to let me sit in the back office while she found the paperwork I needed. On the shelf behind her stood a row of leather-bound registers going back to the 1920s: every funeral the firm had ever conducted, written up in the same careful hand, decade after decade, by fathers and then by sons.</p>
<p>I asked if I could look at one. She said yes, and then she said something I wrote down the moment I got back to the car:</p>
<blockquote>Everyone in this town is in those books somewhere. My grandad used to say we knew more about this place than the vicar and the police put together, and we were better at keeping our mouths shut.</blockquote>
<p>That was the seed: a family who hold a whole town’s grief in their hands, and who have learned, over generations, exactly how much a secret weighs.</p>
<h2>The question underneath</h2>
<p>Ideas are not novels, though. What turned this one into a book was a question I could not stop asking: <strong>what do you owe your family when your family has done something wrong?</strong> Not something distant or historical, but something done to protect you, something you benefited from and never asked for.</p>
<ul>
<li>Do you owe them your silence, because they kept you safe?</li>
<li>Do you owe the truth to a stranger’s family, who have waited years for it?</li>
<li>And what do you owe yourself, after half a lifetime of pretending you were never on that road?</li>
</ul>
<p>Danny and Michael Ashby give very different answers to those questions, and the distance between their answers is the whole of the novel. If you would like to find out where it takes them, the book is <a href="/#purchase">available now in hardcover, paperback, ebook and audio</a>.</p>`,
    tags: ['Writing', 'Inspiration', 'What We Owe the Dead'],
    book: 'featured',
  },
];

// ---------------------------------------------------------------------------
// Site-wide content
// ---------------------------------------------------------------------------

export const siteContent: SiteContent = {
  siteTitle: 'What We Owe the Dead',
  authorName: 'Callum Reyes',
  authorBio: [
    'Callum Reyes grew up on the north-east coast of England, the younger of two brothers, in a town where everybody knew your family before they knew your name. He read English at the University of Leeds and spent the next twelve years as an insurance claims investigator, a job that taught him that everybody lies and almost nobody lies well.',
    'He wrote his first novel in the early mornings before work, over four years and three complete drafts. What We Owe the Dead, a family thriller about two brothers, an undertaker’s business and a death that will not stay buried, is that novel. It was published by Harrow & Vane in 2026, and his second novel, The Quiet Inheritance, will follow in 2027.',
    'Callum lives in York with his partner and a lurcher of uncertain temper, and can usually be found walking a cold beach somewhere between Whitby and Spurn Point, working out what his characters are not telling him. He is represented by Mara Lindqvist at Northlight Literary Agency.',
  ],
  authorPhoto: '/images/author/callum-reyes.svg',
  heroQuote: {
    text: 'A ferocious, heartbreaking debut. I read it in one sitting and then sat in the dark for an hour afterwards, thinking about my own brother.',
    source: 'Early reader, Harrow & Vane proof programme',
  },
  heroBlurb:
    'Nineteen years after one stormy night on the coast road, Danny Ashby comes home to bury his father and finds the past has been waiting for him. A gripping debut about two brothers, a family firm of undertakers and the secrets that refuse to stay in the ground.',
  publisher: { name: 'Harrow & Vane', url: '#' },
  agent: { name: 'Mara Lindqvist', agency: 'Northlight Literary Agency' },
  social: {
    x: 'https://x.com/callumreyesbooks',
    instagram: 'https://www.instagram.com/callumreyesbooks/',
    facebook: 'https://www.facebook.com/callumreyesauthor',
    goodreads: 'https://www.goodreads.com/callumreyes',
  },
  excerpt: {
    title: 'The Return',
    chapter: 'Chapter One',
    paragraphs: [
      'The last time I came into Skelling by train I was seventeen and going the other way, with a holdall on the seat beside me and a promise in my mouth that I had already begun to choke on. Nineteen years later the line still ends at the same buffers, beside the same salt-eaten sign. SKELLING, it used to say. Now it says SKEL ING, as if the town lost something in the middle and decided not to go looking for it.',
      'Nobody was there to meet me. I had not expected anyone to be, and still I stood on the platform a moment longer than I needed to while the other passengers broke around me, among them an old man carrying a wreath in a bin bag as though he had been asked to dispose of it. The wind came up off the harbour the way it always had, straight through whatever you were wearing, and brought with it the smell I had spent half my life trying to forget: diesel, weed, wet rope, and beneath it something colder, like the inside of a church.',
      'I walked. It is not far from the station to anywhere in Skelling; that was always the trouble with it. Down Station Road, past the amusements with their shutters half raised on nothing, past the chip shop that had become a vape shop that had become an exciting retail opportunity. Gulls on every roofline, patient as bailiffs. At the bottom of Church Street I stopped to let a van go by and saw my reflection slide along its side panel: a man in a good coat who looked, for one second, exactly like my father.',
      'Ashby & Sons has stood on the corner of Church Street and Quay Lane since 1962. My grandfather bought it from a joiner who had made coffins as a sideline, and kept the joiner’s habit of laying a hand on every length of timber before he cut it, as if asking its permission. The frontage is black-painted wood with gilt lettering, and the gilt has been renewed every spring for as long as I can remember, because my father believed that a family who could not keep its own name clean had no business being trusted with anybody else’s. The windows are frosted to shoulder height. Above the frosting stands a single white lily in a single glass vase, and the lily is always fresh. That was my job once, the lily. Michael’s was the brass.',
      'The brass was polished. I noticed that before anything else.',
      'I stood across the road with my hands in my pockets and looked at the place for a long time. I told myself I was gathering my thoughts, but the truth is I was waiting for someone inside to see me and make the first move, so that whatever happened next would not be my fault. Nobody came. A gull dropped onto the kerb beside me and looked at my shoes.',
      'In the end I crossed.',
      'The bell above the door was the same bell. Its note went through me like a hand laid flat against my chest. Inside, the front office smelled of furniture polish and lilies. The carpet was new, a deep and forgiving blue. The chairs were the same chairs. Behind the desk hung the photograph of the three of us on the day Michael’s name went onto the sign beneath Dad’s, all of us in black because that was what we wore, even on the good days.',
      '“We’re closed this afternoon,” said a voice from the back. “If it’s urgent, there’s a number on the door—”',
      'Then he came through the bead curtain, saw me, and stopped.',
      'My brother had aged the way men who work with their hands tend to age: all at once, and mostly in the face. He was heavier through the shoulders than I remembered, and greyer, and there was a pale line through his left eyebrow that I did not recognise until I did. It had been there when I left. It had only been new. He had his sleeves rolled and blue nitrile gloves on, and he looked down at them as though embarrassed to be caught wearing them.',
      '“Danny,” he said.',
      '“Mick.”',
      'We stood there. I had rehearsed this on the train. In one version he hit me. In another I hit him. In the most ridiculous, the one I kept returning to around Darlington, we embraced, and one of us said sorry and the other said I know, and the carriage filled with light like the end of a film. None of them had prepared me for how ordinary it would be: the hum of the cold room through the partition, and my brother, whom I had not seen in nineteen years, peeling off his gloves one finger at a time, dropping them into the pedal bin, and saying, “You’ll want a tea.”',
      '“I’m all right.”',
      '“You’ll want a tea,” he said again, and went to put the kettle on, and I followed him because I always had.',
      'The back kitchen had not changed, except for the names on the rota: a Karen, a Lewis, a Dev. Michael filled the kettle and stood with his back to me while it boiled. He had always been able to do that, to turn his back on you and make it feel like a courtesy.',
      '“When did you get in?”',
      '“Just now. I walked up from the station.”',
      '“You could have rung. I’d have come down for you.”',
      '“I know.”',
      'He set two mugs on the side. One had FRANK printed on it in block capitals, a Christmas present from a grandchild I had never met. He looked at it for a moment, moved it to the back of the counter, and took down another.',
      '“He’s through there,” my brother said, without turning round. “If you want to see him. I’ve not finished with him yet, but he’s decent. I’ve done his hair.”',
      'I thought of all the things I had meant to say to my father, and how I had let each year go by like a train I had decided was not mine. I thought of the coast road, and the rain, and the sound the car had made, and my father’s face in the headlights when he came to find us, as calm as a man reading out a hymn number.',
      '“In a minute,” I said.',
      'Michael nodded as if that were an answer. The kettle clicked off. He poured and stirred and set my tea down in front of me, milk and two sugars, the way I had taken it at seventeen and never since, and then at last he looked at me properly: the whole of me, the good coat and the London haircut and whatever it was in my face that I had never managed to leave behind.',
      '“There’s a letter,” he said. “He left you a letter. I haven’t opened it.”',
      'He said it the way he used to tell me the ice on the mill pond would hold. And I knew, the way you always know with brothers, that he was lying.',
    ],
  },
};

// ---------------------------------------------------------------------------
// Purchase formats (order: hardcover, paperback, ebook, audiobook)
// ---------------------------------------------------------------------------

export const purchaseFormats: PurchaseFormatContent[] = [
  {
    id: 'hardcover',
    title: 'Hardcover',
    features: [
      'Signed bookplate while stocks last',
      'Foiled dust jacket with printed endpapers',
      'Ribbon marker, 384 pages',
      'Special pricing on orders of 10 or more copies',
    ],
    buttonText: 'Buy Hardcover',
  },
  {
    id: 'paperback',
    title: 'Paperback',
    features: [
      'Includes book-club discussion questions',
      'Bonus short story: “The Night Shift at Ashby & Sons”',
      'Lightweight B-format edition, perfect for travel',
    ],
    buttonText: 'Buy Paperback',
  },
  {
    id: 'ebook',
    title: 'E-Book',
    features: [
      'Instant download to your library',
      'EPUB edition for most e-readers and reading apps',
      'Adjustable type size and night-reading mode',
      'Exclusive afterword by the author',
    ],
    buttonText: 'Buy E-Book',
  },
  {
    id: 'audiobook',
    title: 'Audiobook',
    features: [
      'Unabridged, 11 hrs 40 min, read by Declan Moss',
      'High-quality MP3 download',
      'Bonus conversation between author and narrator',
    ],
    buttonText: 'Buy Audiobook',
  },
];

// ---------------------------------------------------------------------------
// Book cover gallery (order: eBook front, hardcover wrap, paperback front)
// ---------------------------------------------------------------------------

export const galleryCovers: GalleryCoverContent[] = [
  {
    id: 'ebook-front',
    title: 'eBook Edition',
    description:
      'The digital cover was designed to hold its nerve at the size of a thumbnail. The title is set large in bone-white capitals across a storm-dark sky, with the final word struck in blood red so that it carries from across a room. Beneath it, the silhouette of Ashby & Sons stands alone on the headland with one window lit red, above a moon low on the sea. Everything superfluous has been stripped away so the cover reads as clearly on a phone as it does on an e-reader.',
    image: '/images/covers/what-we-owe-the-dead-ebook.svg',
    alt: 'eBook cover of What We Owe the Dead by Callum Reyes: a bold cream title with the word DEAD in red over a dark stormy sky, and a lone clifftop house with one red window above a moonlit sea.',
  },
  {
    id: 'hardcover-wrap',
    title: 'Hardcover — Full Jacket',
    description:
      'Opened flat, the hardcover jacket becomes a single panorama of the Yorkshire coast at dusk, running from the back cover across the spine to the front. On the front, two figures stand a careful distance apart on the shore below the family firm, with a thin red fracture running from beneath the title straight down between them. The back carries the tagline, early praise and a short description set in cream on ink-navy, while the spine repeats the red fracture so the book stands out on a shelf. The title is finished in a raised, matt foil that catches the light like frost on a headstone.',
    image: '/images/covers/what-we-owe-the-dead-hardcover-wrap.svg',
    alt: 'Full hardcover jacket of What We Owe the Dead laid flat, showing the back cover with tagline, praise and barcode, the spine, and the front cover with two figures on a dark shoreline divided by a red line.',
  },
  {
    id: 'paperback-front',
    title: 'Paperback Edition',
    description:
      'The paperback reworks the original artwork for the front tables of bookshops, pulling the camera back to show the whole bay beneath a low, bruised moon. A pull quote from an early reader sits above the title, and a red band across the foot carries the strapline. The tones are slightly warmer than the hardcover, with a cream sky-line breaking through the clouds, a nod to the small mercies the novel allows its characters. The finish is a soft-touch matt laminate that makes the cover feel as quiet as the town it depicts.',
    image: '/images/covers/what-we-owe-the-dead-paperback.svg',
    alt: 'Paperback cover of What We Owe the Dead by Callum Reyes: a dark bay beneath a pale moon, a reader quote above the title and a red band along the bottom edge.',
  },
];
