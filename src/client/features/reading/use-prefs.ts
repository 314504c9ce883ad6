import { useState } from 'react';
import { type ReaderPrefs, loadPrefs, savePrefs } from './prefs';

/** Reader settings that persist on this device. */
export function usePrefs(): [ReaderPrefs, (prefs: ReaderPrefs) => void] {
  const [prefs, setPrefs] = useState(loadPrefs);
  return [
    prefs,
    (next) => {
      savePrefs(next);
      setPrefs(next);
    },
  ];
}
