import { describe, expect, it } from 'vitest';
import { escapeMarkup, unescapeMarkup } from './markup';

describe('markup escaping', () => {
  it('escapes every character that can end a text or a quoted attribute', () => {
    expect(escapeMarkup(`Ashby & Sons <b class="x">'s</b>`)).toBe('Ashby &amp; Sons &lt;b class=&quot;x&quot;&gt;&#39;s&lt;/b&gt;');
  });

  it('escapes an ampersand once, so escaped text reads back as it was', () => {
    const text = `&amp; is not < "quoted" or 'single'`;
    expect(escapeMarkup(text)).toBe('&amp;amp; is not &lt; &quot;quoted&quot; or &#39;single&#39;');
    expect(unescapeMarkup(escapeMarkup(text))).toBe(text);
  });

  it('drops what no XML document can hold: control characters, U+FFFE, U+FFFF and broken Unicode', () => {
    expect(escapeMarkup('A\u0000d\u0001a\u001f \ud800Q\udc00u\ufffei\uffffll & 😀')).toBe('Ada Quill &amp; 😀');
    // Tab and line breaks are text.
    expect(escapeMarkup('one\ttwo\r\nthree')).toBe('one\ttwo\r\nthree');
  });

  it('reads &apos; as an apostrophe', () => {
    expect(unescapeMarkup('it&apos;s')).toBe("it's");
  });
});
