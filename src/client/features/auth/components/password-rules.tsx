/** What a new password needs, said under every box that sets one (the shared schema checks the same rules). */
export function PasswordRules() {
  return <p className="text-xs text-bone-400">At least 8 characters, with an uppercase letter, a lowercase letter, a number and a special character.</p>;
}
