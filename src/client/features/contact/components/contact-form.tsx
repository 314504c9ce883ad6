/**
 * The contact form (docs/PRODUCT.md, Contact): name, email, subject (its fixed options) and message. All four are required
 * ("Form Incomplete" otherwise); the button reads "Sending..." while busy and the form clears on success.
 */
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { Send } from 'lucide-react';
import { CONTACT_SUBJECTS, type ContactSubject } from '@shared/contact-subjects';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { Select } from '@client/components/ui/select';
import { Textarea } from '@client/components/ui/textarea';
import { toast } from '@client/components/ui/toast-store';
import { sendContactMessage, serverMessage } from '../api';

const EMPTY = { name: '', email: '', subject: '', message: '' };

export function ContactForm() {
  const [values, setValues] = useState(EMPTY);
  const [sending, setSending] = useState(false);
  const id = useId();
  const set = (field: keyof typeof EMPTY) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: event.target.value }));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (Object.values(values).some((v) => v.trim() === '')) {
      toast({ title: 'Form Incomplete', description: 'Please fill all required fields', variant: 'destructive' });
      return;
    }
    setSending(true);
    try {
      const answer = await sendContactMessage({ ...values, subject: values.subject as ContactSubject });
      toast({ title: 'Message Sent', description: answer.message ?? "Thank you for your message. I'll get back to you soon." });
      setValues(EMPTY);
    } catch (error) {
      const failure = serverMessage(error);
      toast({
        title: 'Error',
        description: failure.network
          ? 'Something went wrong. Please try again later.'
          : (failure.message ?? 'Failed to send message. Please try again later'),
        variant: 'destructive',
      });
    } finally {
      setSending(false);
    }
  };

  return (
    <form noValidate onSubmit={onSubmit} aria-label="Contact the author" className="grid gap-5 sm:grid-cols-2">
      <div className="grid gap-2">
        <Label htmlFor={`${id}-name`}>Name</Label>
        <Input id={`${id}-name`} name="name" autoComplete="name" required aria-required="true" value={values.name} onChange={set('name')} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-email`}>Email</Label>
        <Input id={`${id}-email`} name="email" type="email" autoComplete="email" required aria-required="true" value={values.email} onChange={set('email')} />
      </div>
      <div className="grid gap-2 sm:col-span-2">
        <Label htmlFor={`${id}-subject`}>Subject</Label>
        <Select id={`${id}-subject`} name="subject" required aria-required="true" value={values.subject} onChange={set('subject')}>
          <option value="" disabled>
            Select a subject
          </option>
          {CONTACT_SUBJECTS.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </Select>
      </div>
      <div className="grid gap-2 sm:col-span-2">
        <Label htmlFor={`${id}-message`}>Message</Label>
        <Textarea id={`${id}-message`} name="message" rows={6} required aria-required="true" value={values.message} onChange={set('message')} />
      </div>
      <div className="sm:col-span-2">
        <Button type="submit" size="lg" disabled={sending} className="w-full sm:w-auto">
          <Send aria-hidden="true" />
          {sending ? 'Sending...' : 'Send Message'}
        </Button>
      </div>
    </form>
  );
}
