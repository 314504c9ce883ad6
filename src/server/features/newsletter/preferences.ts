import type { DbOrTx } from '../../db/client';
import { getSetting, setSetting } from '../../platform/operations/settings';

/** site_settings key of the newsletter's own options, edited on Admin Settings. */
export const NEWSLETTER_SETTINGS_KEY = 'newsletter.settings' as const;

interface NewsletterSettings {
  askToConfirm?: boolean;
}

declare module '../../platform/operations/settings' {
  interface SettingTypes {
    [NEWSLETTER_SETTINGS_KEY]: NewsletterSettings;
  }
}

/** "Ask new subscribers to confirm": on unless the admin turned it off (decision 0069). */
export async function asksToConfirm(db: DbOrTx): Promise<boolean> {
  const stored = await getSetting(db, NEWSLETTER_SETTINGS_KEY);
  return stored?.askToConfirm !== false;
}

export async function setAsksToConfirm(db: DbOrTx, askToConfirm: boolean): Promise<void> {
  const stored = (await getSetting(db, NEWSLETTER_SETTINGS_KEY)) ?? {};
  await setSetting(db, NEWSLETTER_SETTINGS_KEY, { ...stored, askToConfirm });
}
