/**
 * Runs `work` once the page has loaded and the phone is idle (at the latest 2 s later), in a task of
 * its own: what the visitor does not see waits until what they see is drawn and answering.
 */
export function whenIdle(work: () => void): void {
  const soon = () =>
    'requestIdleCallback' in window ? requestIdleCallback(work, { timeout: 2000 }) : setTimeout(work, 200)
  if (document.readyState === 'complete') soon()
  else window.addEventListener('load', soon, { once: true })
}
