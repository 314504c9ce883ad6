// jsdom ships no types; server tests use only its DOMParser, to check that an XHTML file is well-formed XML.
declare module 'jsdom' {
  export class JSDOM {
    constructor(html?: string);
    readonly window: { DOMParser: typeof DOMParser };
  }
}
