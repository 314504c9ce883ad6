// Makes the site's two web fonts small enough for the first view (run `npm run fonts` after changing the
// character set or the weights; the output is committed in public/fonts). Each variable font is cut
// to the characters English text uses (Basic Latin, typographic quotes and dashes, £, €, ©, é) and
// pinned to one weight (Inter 400 for text, Playfair Display 600 for headings; other weights are
// synthesized by the browser): about 12 KB and 13 KB instead of 48 KB and 38 KB. Any other character is
// drawn by the metric-matched fallback (src/client/fonts.css, whose unicode-range lists the same set).
// Only the OpenType features a browser applies to Latin text by itself are kept, plus tabular figures
// (Tailwind's `tabular-nums`): the stylistic sets, fractions and the like, which the site never asks for,
// would bring their alternate glyphs along (about 4 KB of the two files).
import fs from 'node:fs';
import subsetFont from 'subset-font';

const ascii = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCodePoint(0x20 + i)).join('');
const text = `${ascii}\u00a0\u00a3\u00a9\u00b7\u00e9\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026\u20ac`;

const FEATURES = ['ccmp', 'locl', 'mark', 'mkmk', 'calt', 'clig', 'liga', 'rlig', 'rclt', 'kern', 'tnum'];

const FONTS = [
  { from: 'node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2', to: 'public/fonts/inter-subset.woff2', wght: 400 },
  {
    from: 'node_modules/@fontsource-variable/playfair-display/files/playfair-display-latin-wght-normal.woff2',
    to: 'public/fonts/playfair-display-subset.woff2',
    wght: 600,
  },
];

for (const font of FONTS) {
  const source = fs.readFileSync(font.from);
  const subset = await subsetFont(source, text, { targetFormat: 'woff2', variationAxes: { wght: font.wght }, keepFeatures: FEATURES });
  fs.writeFileSync(font.to, subset);
  console.log(`${font.to}: ${Math.round(source.length / 1024)} KB -> ${Math.round(subset.length / 1024)} KB`);
}
