import { afterEach, describe, expect, it, vi } from 'vitest';
import * as safeStorage from './safe-storage';

describe('safeStorage', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    window.localStorage.clear();
    window.sessionStorage.clear();
  });

  it('stores, reads and removes in local and session storage', () => {
    safeStorage.set('k', 'v');
    expect(safeStorage.get('k')).toBe('v');
    expect(safeStorage.get('k', 'session')).toBeNull();
    safeStorage.set('k', 's', 'session');
    expect(window.sessionStorage.getItem('k')).toBe('s');
    safeStorage.remove('k');
    expect(safeStorage.get('k')).toBeNull();
    expect(safeStorage.get('k', 'session')).toBe('s');
  });

  it('never throws when the browser refuses storage', () => {
    const refuse = () => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    };
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(refuse);
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(refuse);
    vi.spyOn(Storage.prototype, 'removeItem').mockImplementation(refuse);
    expect(safeStorage.get('k')).toBeNull();
    expect(() => safeStorage.set('k', 'v')).not.toThrow();
    expect(() => safeStorage.remove('k', 'session')).not.toThrow();
  });

  it('never throws when the storage object itself cannot be reached', () => {
    vi.spyOn(window, 'localStorage', 'get').mockImplementation(() => {
      throw new DOMException('Access is denied for this document.', 'SecurityError');
    });
    expect(safeStorage.get('k')).toBeNull();
    expect(() => safeStorage.set('k', 'v')).not.toThrow();
    expect(() => safeStorage.remove('k')).not.toThrow();
    expect(safeStorage.get('k', 'session')).toBeNull();
  });
});
