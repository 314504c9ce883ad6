/** /admin/books/create and /admin/books/edit/:id: the book form of docs/PRODUCT.md, Book form. */
import { useEffect, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate, useParams } from '@client/lib/router';
import type { z } from 'zod';
import { bookInputSchema } from '@shared/schemas/books';
import { PageShell } from '@client/components/layout/page-shell';
import { Alert } from '@client/components/ui/alert';
import { FormField } from '@client/components/ui/form-field';
import { Button, buttonClasses } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Skeleton } from '@client/components/ui/skeleton';
import { Spinner } from '@client/components/ui/spinner';
import { Textarea } from '@client/components/ui/textarea';
import { toast } from '@client/components/ui/toast-store';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { useBook, useSaveBook } from '@client/features/admin/api';
import { ImageUploadField } from '@client/features/admin/components/image-upload-field';
import { fieldErrors, errorText } from '@client/lib/api-errors';
import { PreOrderSettings } from '@client/features/pre-orders/components/pre-order-settings';
import { isApiStatus } from '@client/lib/api-errors';

type FormInput = z.input<typeof bookInputSchema>;
type FormOutput = z.output<typeof bookInputSchema>;
const FIELDS = ['title', 'tagline', 'synopsis', 'coverImage', 'yearPublished', 'publisher', 'featured', 'slug', 'series', 'seriesNumber'] as const;

function emptyBook(): FormInput {
  return { title: '', tagline: '', synopsis: '', coverImage: '', yearPublished: new Date().getFullYear(), publisher: '', featured: false, includeEbookWithPrint: true, slug: '', series: '', seriesNumber: '' };
}

export default function AdminBookFormPage({ mode }: { mode: 'create' | 'edit' }) {
  const heading = mode === 'create' ? 'Add New Book' : 'Edit Book';
  useDocumentTitle(heading);
  const navigate = useNavigate();
  const params = useParams();
  const id = mode === 'edit' ? Number(params.id) : null;
  const validId = id === null || (Number.isInteger(id) && id > 0);
  const book = useBook(mode === 'edit' && validId ? id : null);
  const save = useSaveBook(mode === 'edit' ? id : null);

  const form = useForm<FormInput, unknown, FormOutput>({ resolver: zodResolver(bookInputSchema), defaultValues: emptyBook() });
  const { errors } = form.formState;

  const loaded = useRef(false);
  useEffect(() => {
    if (book.data && !loaded.current) {
      loaded.current = true;
      const { id: _id, series, seriesNumber, slug, ...fields } = book.data;
      // A book outside a series shows empty fields, as a new book's form does.
      form.reset({ ...fields, slug: slug ?? '', series: series ?? '', seriesNumber: seriesNumber ?? '' });
    }
  }, [book.data, form]);

  const reported = useRef(false);
  useEffect(() => {
    const failure = book.error ?? (!validId ? new Error('Invalid book id') : null);
    if (failure && !reported.current) {
      reported.current = true;
      toast({ title: 'Error', description: `Error loading book details: ${errorText(failure)}`, variant: 'destructive' });
    }
  }, [book.error, validId]);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync(values);
      toast({ title: mode === 'create' ? 'Book created' : 'Book updated', description: `"${saved.title}" has been saved.` });
      navigate('/admin');
    } catch (error) {
      for (const [field, message] of Object.entries(fieldErrors(error))) {
        if ((FIELDS as readonly string[]).includes(field)) form.setError(field as (typeof FIELDS)[number], { message });
      }
      const verb = mode === 'create' ? 'create' : 'update';
      toast({ title: 'Error', description: `Failed to ${verb} book: ${errorText(error)}`, variant: 'destructive' });
    }
  });

  const loading = mode === 'edit' && book.isPending && validId;
  // A missing book must not look like an empty form that would create nothing on save.
  const missing = mode === 'edit' && (!validId || (book.isError && isApiStatus(book.error, 404)));
  const failed = mode === 'edit' && !missing && book.isError;
  return (
    <PageShell width="default" eyebrow="Admin" title={heading}>
      {missing ? (
        <div className="grid max-w-xl gap-6 rounded-xl border border-ink-700 bg-ink-900/80 p-6 md:p-8">
          <h2 className="font-display text-2xl font-semibold text-bone-50">Book not found</h2>
          <p className="text-bone-300">There is no book with the id {params.id}. It may have been deleted.</p>
          <div className="flex flex-wrap gap-3">
            <Link to="/admin" className={buttonClasses('primary')}>
              Back to Admin
            </Link>
            <Link to="/admin/books/create" className={buttonClasses('outline')}>
              Add New Book
            </Link>
          </div>
        </div>
      ) : failed ? (
        <div className="grid max-w-xl gap-3">
          <Alert variant="destructive" title="Could not load this book">
            {errorText(book.error)}
          </Alert>
          <Button className="w-fit" onClick={() => void book.refetch()}>
            Try Again
          </Button>
        </div>
      ) : loading ? (
        <div className="grid gap-4" aria-busy="true">
          <Spinner label="Loading book details" />
          {Array.from({ length: 5 }, (_, i) => (
            <Skeleton key={i} className="h-12" />
          ))}
        </div>
      ) : (
        <form onSubmit={onSubmit} noValidate className="grid gap-6 rounded-xl border border-ink-700 bg-ink-900/80 p-6 shadow-xl shadow-black/30 md:p-8">
          <FormField id="book-title" label="Title" error={errors.title?.message}>
            <Input {...form.register('title')} />
          </FormField>
          <FormField id="book-tagline" label="Tagline" error={errors.tagline?.message}>
            <Input {...form.register('tagline')} />
          </FormField>
          <FormField id="book-synopsis" label="Synopsis" error={errors.synopsis?.message}>
            <Textarea rows={8} {...form.register('synopsis')} />
          </FormField>
          <ImageUploadField
            id="book-coverImage"
            label="Cover image"
            value={form.watch('coverImage') ?? ''}
            onChange={(url) => form.setValue('coverImage', url, { shouldDirty: true, shouldValidate: form.formState.isSubmitted })}
            error={errors.coverImage?.message}
          />
          <div className="grid gap-6 sm:grid-cols-2">
            <FormField id="book-yearPublished" label="Year published" error={errors.yearPublished?.message}>
              <Input type="number" inputMode="numeric" {...form.register('yearPublished')} />
            </FormField>
            <FormField id="book-publisher" label="Publisher" error={errors.publisher?.message}>
              <Input {...form.register('publisher')} />
            </FormField>
          </div>
          <div className="grid gap-6 sm:grid-cols-[1fr_12rem]">
            <FormField id="book-series" label="Series (optional)" error={errors.series?.message} hint="Books of one series are listed together in the catalogue.">
              <Input {...form.register('series')} />
            </FormField>
            <FormField id="book-seriesNumber" label="Number in series" error={errors.seriesNumber?.message}>
              <Input type="number" inputMode="numeric" min={1} {...form.register('seriesNumber')} />
            </FormField>
          </div>
          <FormField
            id="book-slug"
            label="Web address (optional)"
            error={errors.slug?.message}
            hint={mode === 'create' ? 'The book\'s page is /books/ followed by this; left empty, it is made from the title.' : 'The book\'s page is /books/ followed by this.'}
          >
            <Input {...form.register('slug')} autoComplete="off" spellCheck={false} />
          </FormField>
          <label className="flex items-start gap-3 text-sm text-bone-100">
            <input type="checkbox" className="mt-0.5 size-4 accent-blood-500" {...form.register('featured')} id="book-featured" />
            <span>
              Featured
              <span className="block text-bone-400">The featured book is the one on sale. Featuring this book unfeatures the current one.</span>
            </span>
          </label>
          <label className="flex items-start gap-3 text-sm text-bone-100">
            <input type="checkbox" className="mt-0.5 size-4 accent-blood-500" {...form.register('includeEbookWithPrint')} id="book-includeEbookWithPrint" />
            <span>
              Include the ebook with print
              <span className="block text-bone-400">A paid hardcover or paperback also puts the ebook in the buyer&apos;s library.</span>
            </span>
          </label>
          <div className="flex flex-wrap gap-3">
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving...' : mode === 'create' ? 'Create Book' : 'Save Changes'}
            </Button>
            <Link to="/admin" className={buttonClasses('outline')}>
              Cancel
            </Link>
          </div>
        </form>
      )}
      {mode === 'edit' && id !== null && book.data ? <PreOrderSettings bookId={id} featured={book.data.featured} /> : null}
    </PageShell>
  );
}
