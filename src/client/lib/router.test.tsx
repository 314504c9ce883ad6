import { act, fireEvent, render, screen } from '@testing-library/react';
import { isActivePath, Link, Navigate, NavLink, resolveTo, Route, Switch, useLocation, useNavigate, useParams, useSearchParams } from './router';

/** Shows the location the compatibility hooks see, on the real (jsdom) browser history. */
function Probe() {
  const { pathname, search, hash } = useLocation();
  const [params] = useSearchParams();
  return <output data-testid="where">{`${pathname}|${search}|${hash}|${params.get('q') ?? ''}`}</output>;
}
const where = () => screen.getByTestId('where').textContent;

function Buttons() {
  const navigate = useNavigate();
  return (
    <>
      <button type="button" onClick={() => navigate('/blog?q=1')}>push</button>
      <button type="button" onClick={() => navigate({ search: '?q=2', hash: '#library' }, { replace: true })}>object</button>
      <button type="button" onClick={() => navigate(-1)}>back</button>
    </>
  );
}

function PostId() {
  return <p>post {useParams().id}</p>;
}

beforeEach(() => window.history.replaceState(null, '', '/'));

describe('router compatibility module (browser location)', () => {
  it('useLocation follows pushState, replaceState and hashchange', async () => {
    render(<Probe />);
    expect(where()).toBe('/|||');
    act(() => window.history.pushState(null, '', '/profile?q=x'));
    expect(where()).toBe('/profile|?q=x||x');
    act(() => {
      window.location.hash = '#library';
    });
    await screen.findByText('/profile|?q=x|#library|x');
  });

  it('navigate pushes paths, resolves objects against the current path, and goes back', async () => {
    render(
      <>
        <Probe />
        <Buttons />
      </>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'push' }));
    expect(where()).toBe('/blog|?q=1||1');
    const length = window.history.length;
    fireEvent.click(screen.getByRole('button', { name: 'object' }));
    expect(where()).toBe('/blog|?q=2|#library|2');
    expect(window.history.length).toBe(length); // replaced, not pushed
    fireEvent.click(screen.getByRole('button', { name: 'back' }));
    await screen.findByText('/|||');
  });

  it('Link navigates in-app on a plain click only, and Switch/Route match with params', () => {
    render(
      <>
        <Link to="/blog/42">Post</Link>
        <Switch>
          <Route path="/blog/:id">
            <PostId />
          </Route>
          <Route path="*">
            <p>fallback</p>
          </Route>
        </Switch>
      </>,
    );
    expect(screen.getByText('fallback')).toBeInTheDocument();
    const link = screen.getByRole('link', { name: 'Post' });
    expect(link).toHaveAttribute('href', '/blog/42');
    fireEvent.click(link, { ctrlKey: true });
    expect(window.location.pathname).toBe('/');
    fireEvent.click(link);
    expect(window.location.pathname).toBe('/blog/42');
    expect(screen.getByText('post 42')).toBeInTheDocument();
  });

  it('NavLink marks the current section like React Router', () => {
    window.history.replaceState(null, '', '/blog/a-post');
    render(
      <>
        <NavLink to="/" end className={({ isActive }) => (isActive ? 'on' : 'off')}>Home</NavLink>
        <NavLink to="/blog" className="link">Blog</NavLink>
      </>,
    );
    expect(screen.getByRole('link', { name: 'Home' })).toHaveClass('off');
    expect(screen.getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current');
    expect(screen.getByRole('link', { name: 'Blog' })).toHaveClass('link', 'active');
    expect(screen.getByRole('link', { name: 'Blog' })).toHaveAttribute('aria-current', 'page');
    expect(isActivePath('/blogger', '/blog', false)).toBe(false);
    expect(isActivePath('/blog/x', '/blog', true)).toBe(false);
    expect(isActivePath('/profile', '/', false)).toBe(false);
  });

  it('Navigate redirects once, replacing the entry when asked', () => {
    const length = window.history.length;
    render(<Navigate to="/login?returnTo=admin" replace />);
    expect(`${window.location.pathname}${window.location.search}`).toBe('/login?returnTo=admin');
    expect(window.history.length).toBe(length);
    expect(resolveTo({ hash: 'x' }, { pathname: '/p', search: '?a', hash: '' })).toBe('/p#x');
  });
});
