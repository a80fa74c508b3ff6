/**
 * Credentials sent in URLs (`?token=`, `?access_token=`, `?api_key=`...) never reach a log
 * line: request lines log the URL with their values replaced, and every other line (the
 * service's messages, error stacks) has them replaced wherever they appear in its text.
 */

/** A query parameter whose value is a secret, whatever the route: its name mentions one of these. */
const CREDENTIAL_NAME = /token|key|secret|passw|pwd|auth|sig|session|jwt|cookie|credential/i;
/** `name=value` after `?`, `&` or `;` anywhere in a text, with a credential-like name. */
const CREDENTIAL_IN_TEXT =
  /([?&;][^\s=&;?#]*(?:token|key|secret|passw|pwd|auth|sig|session|jwt|cookie|credential)[^\s=&;?#]*=)[^\s&;#"'<>]*/gi;
export const REDACTED = '[redacted]';

/** The URL as it may be logged: the values of credential-like query parameters replaced. */
export function loggableUrl(url: string): string {
  const query = url.indexOf('?');
  // Without a credential-like word, in plain or in percent-encoded form, there is nothing to replace.
  if (query === -1 || (!url.includes('%') && !CREDENTIAL_NAME.test(url))) {
    return url;
  }
  let changed = false;
  const parts = url
    .slice(query + 1)
    .split('&')
    .map((part) => {
      const equals = part.indexOf('=');
      if (equals === -1) {
        return part;
      }
      const rawName = part.slice(0, equals);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // an undecodable name is judged as sent
      }
      if (CREDENTIAL_NAME.test(name) || CREDENTIAL_NAME.test(rawName)) {
        changed = true;
        return `${rawName}=${REDACTED}`;
      }
      return part;
    });
  // Whatever else looks like a credential in the URL (after `;`, say) goes too.
  const redacted = changed ? `${url.slice(0, query)}?${parts.join('&')}` : url;
  return redactCredentials(redacted);
}

/** A text with the values of credential-like `name=value` query parameters in it replaced. */
export function redactCredentials(text: string): string {
  CREDENTIAL_IN_TEXT.lastIndex = 0;
  return CREDENTIAL_IN_TEXT.test(text) ? text.replace(CREDENTIAL_IN_TEXT, `$1${REDACTED}`) : text;
}
