/** Removes the API key from a URL before it is logged (DEVELOPERS.md "Security"). */
export function redactUrl(url: string): string {
  return url.replace(/([?&]oauth_consumer_key=)[^&#]*/gi, '$1[redacted]');
}
