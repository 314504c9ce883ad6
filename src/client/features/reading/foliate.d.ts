/** The parts of foliate-js's <foliate-view> the reader uses (the package ships no types). */
declare module 'foliate-js/view.js' {
  export interface FoliateTocItem {
    label: string;
    href: string;
    subitems?: FoliateTocItem[];
  }
  export interface FoliateRelocate {
    fraction?: number;
    cfi: string;
    tocItem?: { label?: string; href?: string } | null;
    section?: { current: number; total: number };
    location?: { current: number; next: number; total: number };
  }
  export interface FoliatePaginator extends HTMLElement {
    setStyles?(css: string | [string, string]): void;
    readonly atStart: boolean;
    readonly atEnd: boolean;
  }
  export interface FoliateView extends HTMLElement {
    book: { toc?: FoliateTocItem[]; sections: Array<{ id: string }> };
    renderer: FoliatePaginator;
    open(book: Blob | File | string): Promise<void>;
    init(options: { lastLocation?: string; showTextStart?: boolean }): Promise<void>;
    close(): void;
    goTo(target: string | number): Promise<unknown>;
    goToFraction(fraction: number): Promise<void>;
    next(distance?: number): Promise<void>;
    prev(distance?: number): Promise<void>;
    goLeft(): Promise<void>;
    goRight(): Promise<void>;
    addEventListener(type: 'relocate', listener: (event: CustomEvent<FoliateRelocate>) => void): void;
    addEventListener(type: 'load', listener: (event: CustomEvent<{ doc: Document; index: number }>) => void): void;
    addEventListener(type: 'external-link' | 'link', listener: (event: CustomEvent<{ a: HTMLAnchorElement; href: string }>) => void): void;
  }
  export const View: { new (): FoliateView };
}

declare module 'foliate-js/epub.js';
declare module 'foliate-js/paginator.js';
declare module 'foliate-js/vendor/zip.js';
