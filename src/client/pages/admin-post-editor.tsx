/** /admin/posts/new and /admin/posts/:id/edit: write or edit a blog post. */
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from '@client/lib/router';
import { slugify, type PostInput } from '@shared/schemas/admin';
import { Button, buttonClasses } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { Select } from '@client/components/ui/select';
import { Textarea } from '@client/components/ui/textarea';
import { toast } from '@client/components/ui/toast-store';
import { useBooks, usePost, useSavePost } from '@client/features/admin/api';
import { AdminFrame, QueryState } from '@client/features/admin/components/admin-frame';
import { ImageUploadField } from '@client/features/admin/components/image-upload-field';
import { fieldErrors, errorText } from '@client/lib/api-errors';
import { RichTextEditor } from '@client/features/admin/posts/rich-text-editor';

interface Draft {
  title: string;
  slug: string;
  excerpt: string;
  content: string;
  coverImage: string;
  bookId: string;
  tags: string;
  isPublished: boolean;
}
const EMPTY: Draft = { title: '', slug: '', excerpt: '', content: '', coverImage: '', bookId: '', tags: '', isPublished: false };

export default function AdminPostEditorPage({ mode }: { mode: 'create' | 'edit' }) {
  const params = useParams();
  const id = mode === 'edit' ? Number(params.id) : null;
  const post = usePost(id);
  const books = useBooks();
  const save = useSavePost(id);
  const navigate = useNavigate();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const loaded = useRef(false);

  useEffect(() => {
    if (post.data && !loaded.current) {
      loaded.current = true;
      const p = post.data;
      setDraft({ ...p, coverImage: p.coverImage ?? '', bookId: p.bookId ? String(p.bookId) : '', tags: p.tags.join(', ') });
    }
  }, [post.data]);

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const local: Record<string, string> = {};
    if (!draft.title.trim()) local.title = 'Title is required';
    if (!draft.excerpt.trim()) local.excerpt = 'Excerpt is required';
    if (!draft.content.trim()) local.content = 'Content is required';
    setErrors(local);
    if (Object.keys(local).length) return;
    const input: PostInput = {
      title: draft.title,
      slug: draft.slug.trim(),
      excerpt: draft.excerpt,
      content: draft.content,
      coverImage: draft.coverImage,
      bookId: draft.bookId ? Number(draft.bookId) : null,
      tags: draft.tags.split(',').map((t) => t.trim()).filter(Boolean),
      isPublished: draft.isPublished,
    };
    try {
      const saved = await save.mutateAsync(input);
      toast({ title: mode === 'create' ? 'Post created' : 'Post saved', description: saved.isPublished ? `Live at /blog/${saved.slug}` : 'Saved as a draft.' });
      navigate('/admin/posts');
    } catch (error) {
      setErrors(fieldErrors(error));
      toast({ title: 'Error', description: `Failed to save post: ${errorText(error)}`, variant: 'destructive' });
    }
  };

  const field = (name: keyof Draft) => ({
    id: `post-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `post-${name}-error` : undefined,
  });
  const error = (name: string) =>
    errors[name] ? (
      <p id={`post-${name}-error`} className="text-sm text-blood-300">
        {errors[name]}
      </p>
    ) : null;

  const form = (
    <form onSubmit={submit} noValidate className="grid gap-6 rounded-xl border border-ink-700 bg-ink-900/80 p-6 shadow-xl shadow-black/30 md:p-8">
      <div className="grid gap-6 md:grid-cols-2">
        <div className="grid content-start gap-2">
          <Label htmlFor="post-title">Title</Label>
          <Input {...field('title')} value={draft.title} onChange={(e) => set('title', e.target.value)} />
          {error('title')}
        </div>
        <div className="grid content-start gap-2">
          <Label htmlFor="post-slug">Slug</Label>
          <Input {...field('slug')} value={draft.slug} placeholder={slugify(draft.title) || 'from-the-title'} onChange={(e) => set('slug', e.target.value.toLowerCase())} />
          {error('slug') ?? <p className="text-xs text-bone-400">Leave empty to make one from the title.</p>}
        </div>
      </div>
      <div className="grid content-start gap-2">
        <Label htmlFor="post-excerpt">Excerpt</Label>
        <Textarea rows={3} {...field('excerpt')} value={draft.excerpt} onChange={(e) => set('excerpt', e.target.value)} />
        {error('excerpt')}
      </div>
      <div className="grid content-start gap-2">
        <Label id="post-content-label">
          Content
        </Label>
        <RichTextEditor
          id="post-content"
          labelId="post-content-label"
          value={draft.content}
          onChange={(v) => set('content', v)}
          invalid={!!errors.content}
          describedBy={errors.content ? 'post-content-error' : undefined}
        />
        {error('content')}
      </div>
      <div className="grid gap-6 md:grid-cols-3">
        <div className="grid content-start gap-2">
          <Label htmlFor="post-bookId">Related book</Label>
          <Select {...field('bookId')} value={draft.bookId} onChange={(e) => set('bookId', e.target.value)}>
            <option value="">None</option>
            {(books.data ?? []).map((b) => (
              <option key={b.id} value={b.id}>
                {b.title}
              </option>
            ))}
          </Select>
        </div>
        <div className="grid content-start gap-2">
          <Label htmlFor="post-tags">Tags</Label>
          <Input {...field('tags')} value={draft.tags} placeholder="News, Writing" onChange={(e) => set('tags', e.target.value)} />
        </div>
        <div className="md:col-span-3">
          <ImageUploadField
            id="post-coverImage"
            label="Cover image (optional)"
            shape="wide"
            optional
            value={draft.coverImage}
            onChange={(url) => set('coverImage', url)}
            error={errors.coverImage}
          />
        </div>
      </div>
      <label className="flex items-center gap-3 text-sm text-bone-100">
        <input type="checkbox" className="size-4 accent-blood-500" checked={draft.isPublished} onChange={(e) => set('isPublished', e.target.checked)} />
        Published (visible on the blog)
      </label>
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save Post'}
        </Button>
        {id !== null ? (
          <Link to={`/admin/newsletter/new?post=${id}`} className={buttonClasses('outline')}>
            Send this post
          </Link>
        ) : null}
        <Link to="/admin/posts" className={buttonClasses('outline')}>
          Cancel
        </Link>
      </div>
    </form>
  );

  return (
    <AdminFrame title={mode === 'create' ? 'New Post' : 'Edit Post'}>
      {mode === 'edit' ? <QueryState query={post}>{() => form}</QueryState> : form}
    </AdminFrame>
  );
}
