import { render, screen } from '@testing-library/react';
import type { Order } from '@shared/schemas/library';
import { OrdersList } from './orders-list';

const order = (over: Partial<Order>): Order => ({
  id: 1,
  orderReference: 'WWD-0123456789-1',
  format: 'hardcover',
  price: 4998,
  displayPrice: '£49.98',
  status: 'completed',
  purchaseDate: '2026-11-26T10:00:00.000Z',
  shippedAt: null,
  book: { id: 1, title: 'What We Owe the Dead', coverImage: '/c.svg' },
  ...over,
});

describe('OrdersList', () => {
  it('names the copies of a print line bought together from the basket, and nothing for one copy', () => {
    render(<OrdersList orders={[order({ quantity: 2 }), order({ id: 2, format: 'paperback', quantity: 1, orderReference: 'WWD-0123456789-2' })]} />);
    expect(screen.getByText('What We Owe the Dead · Hardcover × 2')).toBeInTheDocument();
    expect(screen.getByText('What We Owe the Dead · Paperback')).toBeInTheDocument();
  });
});
