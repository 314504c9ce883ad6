/**
 * A realistic database at a fraction of a successful launch (1 = 200,000 readers, about 1,000,000
 * purchases, 300,000 subscribers, 50,000 messages, 2,000 posts, 5,000 codes, millions of download, audit
 * and mail rows), spread over three years. Every row is made by the database itself (generate_series), so
 * a million orders take seconds and never pass through this process.
 */
export interface ScaleSizes {
  readers: number;
  orders: number;
  subscribers: number;
  messages: number;
  posts: number;
  codes: number;
  activities: number;
  audit: number;
  mail: number;
}

export function sizesAt(fraction: number): ScaleSizes {
  const at = (n: number, least = 1) => Math.max(least, Math.round(n * fraction));
  return {
    readers: at(200_000, 10),
    orders: at(800_000, 10),
    subscribers: at(300_000, 10),
    messages: at(50_000),
    posts: at(2_000, 12),
    codes: at(5_000),
    activities: at(1_000_000),
    audit: at(1_000_000),
    mail: at(1_000_000),
  };
}

/** The statements, in order; each is one round trip and needs no parameters. */
export function scaleDataStatements(sizes: ScaleSizes): string[] {
  const { readers, orders, subscribers, messages, posts, codes, activities, audit, mail } = sizes;
  // Three years back from now; hashtext spreads values without a random seed, so two runs make the same data.
  const span = `interval '1095 days'`;
  const when = (n: string, total: number) => `now() - ${span} + (${n}::float8 / ${total}) * ${span}`;
  return [
    `insert into books (title, slug, cover_image, tagline, synopsis, year_published, publisher, featured)
       select 'Scale Book ' || g, 'scale-book-' || g, '/images/cover.jpg', 'A tagline', 'A synopsis', 2023 + g, 'A Publisher', false
       from generate_series(1, 3) g`,
    `insert into book_prices (book_id, format, price)
       select b.id, f.format, f.price from books b
       cross join (values ('hardcover', 2899), ('paperback', 1699), ('ebook', 999), ('audiobook', 1999), ('pdf', 999)) f(format, price)
       on conflict do nothing`,
    `insert into users (username, email, password_hash, display_name, created_at, is_subscribed)
       select 'reader' || g, 'reader' || g || '@example.' || (array['com','org','net'])[1 + g % 3],
              'x', case when g % 4 = 0 then null else 'Reader ' || initcap(md5(g::text)) end,
              ${when('g', readers)}, g % 3 = 0
       from generate_series(1, ${readers}) g`,
    // A paid row per order, a gift now and then, an ebook included with most print copies, some refunds.
    `insert into purchases (user_id, book_id, format, price, purchase_date, status, order_reference, kind, max_downloads, download_count, refunded_at)
       select u.id, b.id, f.format, f.price, ${when('g', orders)},
              case when g % 50 = 0 then 'refunded' when f.format in ('hardcover','paperback') and g % 3 = 0 then 'shipped'
                   when g % 97 = 0 then 'pending' else 'completed' end,
              'WWD-' || upper(substr(md5('order' || g), 1, 10)),
              case when g % 40 = 0 then 'gift' else 'paid' end,
              3, (g % 4), case when g % 50 = 0 then ${when('g', orders)} + interval '3 days' end
       from generate_series(1, ${orders}) g
       join lateral (select id from users where id = (select min(id) from users) + abs(hashtext('u' || g)) % ${readers}) u on true
       join lateral (select id from books order by id offset abs(hashtext('b' || g)) % 3 limit 1) b on true
       join lateral (select * from (values ('hardcover', 2899), ('paperback', 1699), ('ebook', 999), ('audiobook', 1999))
                       v(format, price) offset abs(hashtext('f' || g)) % 4 limit 1) f on true`,
    `insert into purchases (user_id, book_id, format, price, purchase_date, status, order_reference, kind, paid_by_purchase_id, max_downloads)
       select p.user_id, p.book_id, 'ebook', 0, p.purchase_date, case when p.status = 'refunded' then 'refunded' else 'completed' end,
              p.order_reference || '-EB', 'included', p.id, 3
       from purchases p where p.format in ('hardcover', 'paperback') and p.kind = 'paid' and p.id % 5 <> 0`,
    `insert into purchase_customer_info (purchase_id, customer_name, customer_email, stripe_session_id, shipping_address)
       select p.id, coalesce(u.display_name, u.username), u.email, 'cs_scale_' || p.id,
              case when p.format in ('hardcover','paperback') then jsonb_build_object('line1', p.id || ' High Street', 'city', 'London', 'postal_code', 'N1 1AA', 'country', 'GB') end
       from purchases p join users u on u.id = p.user_id where p.kind in ('paid', 'gift')`,
    `insert into gifts (purchase_id, recipient_name, recipient_email, created_at, sent_at, claimed_at)
       select p.id, 'Friend ' || p.id, 'friend' || p.id || '@example.com', p.purchase_date, p.purchase_date,
              case when p.id % 2 = 0 then p.purchase_date + interval '2 days' end
       from purchases p where p.kind = 'gift'`,
    `insert into download_transfers (link_id, purchase_id, user_id, format, issued_at, requests, completed_at)
       select 'scale-' || p.id || '-' || n, p.id, p.user_id, p.format, p.purchase_date + n * interval '1 day', 1,
              p.purchase_date + n * interval '1 day'
       from purchases p cross join generate_series(1, 2) n
       where p.format in ('ebook', 'audiobook') and p.status = 'completed' and p.download_count >= n`,
    `insert into newsletter_subscribers (email, name, subscribed_at, unsubscribed_at, user_id, state, source, confirmed_at)
       select case when g <= ${Math.floor(readers / 3)} then 'reader' || (g * 3) || '@example.' || (array['com','org','net'])[1 + (g * 3) % 3]
                   else 'fan' || g || '@mail.example' end,
              case when g % 5 = 0 then null else 'Fan "' || g || '", of course' end,
              ${when('g', subscribers)},
              case when g % 11 = 0 then ${when('g', subscribers)} + interval '30 days' end,
              null,
              case when g % 11 = 0 then 'unsubscribed' when g % 13 = 0 then 'unconfirmed' else 'confirmed' end,
              (array['footer', 'home', 'checkout', 'import'])[1 + g % 4],
              case when g % 11 <> 0 and g % 13 <> 0 then ${when('g', subscribers)} end
       from generate_series(1, ${subscribers}) g`,
    `insert into contact_messages (name, email, subject, message, created_at, read_at)
       select 'Writer ' || g, 'writer' || g || '@example.com',
              (array['Media Inquiry', 'Speaking Engagement', 'Book Club Appearance', 'Bulk Order', 'Other'])[1 + g % 5],
              repeat('A message about the book. ', 8), ${when('g', messages)},
              case when g % 3 <> 0 then ${when('g', messages)} + interval '1 day' end
       from generate_series(1, ${messages}) g`,
    `insert into blog_posts (title, slug, content, excerpt, published_at, is_published, author_name, tags, created_at, updated_at)
       select 'Notes from the desk ' || g, 'notes-from-the-desk-' || g, '<p>' || repeat('Words about writing. ', 60) || '</p>',
              'Words about writing.', ${when('g', posts)}, g % 10 <> 0, 'The Author', array['writing'],
              ${when('g', posts)}, ${when('g', posts)}
       from generate_series(1, ${posts}) g`,
    `insert into discount_codes (code, percent_off, amount_off, expires_at, max_redemptions, redemptions, active, created_at, updated_at)
       select 'CODE' || g, case when g % 2 = 0 then 10 + g % 40 end, case when g % 2 = 1 then 100 + g % 500 end,
              case when g % 3 = 0 then now() + interval '30 days' end, case when g % 4 = 0 then 100 end, g % 50,
              g % 7 <> 0, ${when('g', codes)}, ${when('g', codes)}
       from generate_series(1, ${codes}) g`,
    `insert into user_activities (user_id, type, platform, points, dedupe_key, created_at)
       select (select min(id) from users) + abs(hashtext('a' || g)) % ${readers}, 'share',
              (array['x', 'facebook', 'instagram'])[1 + g % 3], 5, 'share:' || g, ${when('g', activities)}
       from generate_series(1, ${activities}) g`,
    `insert into reviews (book_id, rating, text, author, title, created_at)
       select (select min(id) from books) + g % 3, 1 + g % 5, 'A review.', 'Critic ' || g, 'Review ' || g, ${when('g', 3000)}
       from generate_series(1, 300) g`,
    `insert into audit_log (action, target_type, target_id, details, created_at)
       select (array['order.ship', 'post.update', 'subscribers.export', 'order.refund'])[1 + g % 4], 'purchase', g::text,
              jsonb_build_object('n', g), ${when('g', audit)}
       from generate_series(1, ${audit}) g`,
    `insert into mail_outbox (to_address, subject, text_body, kind, status, attempts, next_attempt_at, created_at, sent_at)
       select 'reader' || g || '@example.com', 'Your receipt', repeat('Thank you for your order. ', 10), 'receipt', 'sent', 1,
              ${when('g', mail)}, ${when('g', mail)}, ${when('g', mail)}
       from generate_series(1, ${mail}) g`,
    `vacuum analyze`,
  ];
}
