// The site as served locally, and how URLs of the published site (the
// --base-url the site was built with) map onto the local server.

/**
 * `server` comes from startServer(); `publishedBase` is the base URL the site
 * was built with, or '' when it was built without one.
 */
export function makeServed(server, publishedBase = '') {
  const base = publishedBase ? `${publishedBase.replace(/\/+$/, '')}/` : '';
  return {
    ...server,
    publishedBase: base,
    /** The local URL for a URL of the published site, or null when `url` is not under it. */
    mapPublished(url) {
      if (!base) return null;
      if (url === base.slice(0, -1)) return server.url;
      if (!url.startsWith(base)) return null;
      return server.url + url.slice(base.length);
    },
  };
}
