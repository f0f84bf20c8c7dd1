/** The agent app's service worker: notifications and their "Claim" action (public/agent-sw.js). */
export const AGENT_SERVICE_WORKER = '/agent-sw.js'

/** Web Push needs a service worker, the Push API and notifications (iOS: only once added to the Home Screen). */
export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  )
}

export function registerAgentWorker(): Promise<ServiceWorkerRegistration> {
  return navigator.serviceWorker.register(AGENT_SERVICE_WORKER, { scope: '/' })
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/')
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4))
  const bytes = new Uint8Array(new ArrayBuffer(raw.length))
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i)
  return bytes
}

/** Asks for permission (the caller runs this from the agent's own tap) and subscribes this browser. */
export async function subscribeThisBrowser(publicKey: string): Promise<PushSubscriptionJSON> {
  const permission = await Notification.requestPermission()
  if (permission !== 'granted') throw new Error('Notifications are blocked for Porchlight in this browser')
  await registerAgentWorker()
  const registration = await navigator.serviceWorker.ready
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(publicKey),
    }))
  return subscription.toJSON()
}
