// URLs the API accepts as addresses of a web service.

/** The URL when `value` is an absolute http:// or https:// URL; null otherwise. */
export function httpUrl(value: string): URL | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  return url.protocol === "http:" || url.protocol === "https:" ? url : null;
}
