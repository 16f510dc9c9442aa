// Under the staff area (/staff/edit/) a <style> needs this response's CSP nonce, which the server writes into
// <meta name="csp-nonce">; `npm run studio` has no such meta and no CSP that asks for one.
const nonce =
  typeof document === 'undefined'
    ? ''
    : (document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? '');

export const styleNonce: string | undefined = nonce === '' ? undefined : nonce;
/** MantineProvider's props for the nonce: none locally. */
export const nonceProps: { getStyleNonce?: () => string } =
  nonce === '' ? {} : { getStyleNonce: () => nonce };
