/**
 * The way to the identity provider after a form was posted here. Not a 302: the CSP's
 * `form-action 'self'` covers the redirects of a form's navigation, and Chromium refuses one that
 * leaves for the IdP's origin. The page goes there itself with a meta refresh (acted on when the
 * element enters the document, server-rendered or rendered after a fetch submission), which is
 * not a form submission, and a link for a browser that ignores it. One way only: a second
 * navigation would start a second request at the IdP and spend the first one's state.
 */
export function SsoRedirect({ url, label, status }: { url: string; label: string; status: string }) {
  return (
    <div className="alert alert-info" role="status">
      <meta httpEquiv="refresh" content={`0;url=${url}`} />
      <p className="mb-2">{status}</p>
      <a className="btn btn-primary" href={url}>
        {label}
      </a>
    </div>
  );
}
