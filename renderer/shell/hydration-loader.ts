// When the page's JavaScript runs. Every prerendered page is complete and works without it (links, tel: links, forms
// that post, menus and dialogs built on <details> and popover), so a visitor on a slow phone gets a plain static
// page first: nothing runs while the page appears. The code is downloaded into the cache a moment after the page
// has loaded (prefetch: not even compiled yet) and runs at the visitor's first sign of life — a touch, a pointer, a
// key, a scroll — when it adds what only script can: the floating widget, client navigation with prefetching on hover and
// touch, forms that answer without leaving the page.
//
// The loader is an inline script; the page's Content-Security-Policy allows it by its hash (core/csp.ts).

/** What starts the page's code: anything a visitor does. Listened to on window, in the capture phase, passively. */
export const HYDRATION_EVENTS = [
  'pointerdown',
  'pointermove',
  'touchstart',
  'keydown',
  'focusin',
  'scroll',
  'wheel',
];

/**
 * How long after the load event the code is prefetched. On a slow phone the first paint can come after the load
 * event, and a download started then competes with it; Lighthouse counts such a request towards the largest paint
 * (its LCP went from about 0.9 s to 1.65 s whenever the prefetch began first). A visitor who acts sooner starts the
 * download at once.
 */
export const PREFETCH_DELAY_MS = 1500;

/**
 * The inline script of every page: runs `entry` (the client entry, which hydrates the page) on the first of
 * HYDRATION_EVENTS (and on the next one again if its download failed), and PREFETCH_DELAY_MS after the load event
 * prefetches `entry`, the chunks it imports and the `data` files it reads as it hydrates (the site data) so that run
 * does not wait for the network. Plain ES2020, tiny, and the same on every page of a release.
 */
export function hydrationLoader(
  entry: string,
  imports: readonly string[],
  data: readonly string[] = [],
): string {
  const events = JSON.stringify(HYDRATION_EVENTS);
  const modules = JSON.stringify([entry, ...imports]);
  return [
    '(()=>{',
    `const events=${events},modules=${modules},data=${JSON.stringify(data)},`,
    'listen=(method)=>{for(const type of events)window[method](type,started,{capture:true,passive:true})},',
    // A download that fails (a phone losing its signal) is tried again at the visitor's next interaction. The code
    // is fetched whole into the cache first and only then imported: a browser may keep a module whose download
    // failed as failed for the life of the page (Chromium 150 does), so importing before it is whole could fail for
    // good. The import then reads the cached copy (assets are cached for a year).
    // The code's evaluation is a long task: it starts once the touch that woke it has painted (a frame, then a task),
    // so that touch is answered at once instead of after it.
    'afterPaint=()=>new Promise((resolve)=>requestAnimationFrame(()=>setTimeout(resolve))),',
    `started=()=>{listen('removeEventListener');Promise.all([...modules,...data].map((href)=>fetch(href,{credentials:'same-origin'}).then((response)=>{if(!response.ok)throw new Error(href);return response.arrayBuffer()}))).then(afterPaint).then(()=>import(${JSON.stringify(entry)})).catch(()=>listen('addEventListener'))};`,
    "listen('addEventListener');",
    'const preload=()=>{',
    'for(const href of modules){',
    // As a module script fetches (CORS, same-origin credentials), so the cached copy is the one the import uses.
    "const link=document.createElement('link');link.rel='prefetch';link.as='script';link.crossOrigin='anonymous';link.href=href;document.head.append(link)",
    '}',
    // The data is read with fetch() (same-origin credentials): prefetched as such, so that read finds it in the cache.
    "for(const href of data){const link=document.createElement('link');link.rel='prefetch';link.as='fetch';link.crossOrigin='anonymous';link.href=href;document.head.append(link)}",
    '};',
    `const later=()=>setTimeout(preload,${PREFETCH_DELAY_MS});`,
    "if(document.readyState==='complete')later();else addEventListener('load',later,{once:true})",
    '})()',
  ].join('');
}
