// The agent app's service worker (decision 050): notifications, and the "Claim" action on an offer.
// It caches nothing: the agent app's answers are private and live, so every request goes to the
// network as if there were no worker (no fetch handler at all, so /api is never answered from a cache).

self.addEventListener('install', () => self.skipWaiting())
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()))

self.addEventListener('push', (event) => {
  let data = {}
  try {
    data = event.data ? event.data.json() : {}
  } catch {
    return
  }
  // What a locked screen shows: the title and the address and time, nothing private.
  const options = {
    body: data.body || '',
    tag: data.tag,
    renotify: data.type === 'offer',
    icon: '/icon-192.png',
    badge: '/icon-192.png',
    data: { url: data.url || '/dashboard', claimToken: data.claimToken, openHouseId: data.openHouseId },
    actions: data.claimToken ? [{ action: 'claim', title: 'Claim' }] : [],
    requireInteraction: data.type === 'offer',
  }
  event.waitUntil(self.registration.showNotification(data.title || 'Porchlight', options))
})

async function claim(notification) {
  const { claimToken, url } = notification.data || {}
  let title = 'Claimed'
  let body = ''
  try {
    const res = await fetch('/api/public/claimFromNotification', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ claimToken }),
      cache: 'no-store',
    })
    const answer = await res.json().catch(() => ({}))
    if (res.ok) {
      title = "You're hosting"
      body = answer.data?.message || notification.body
    } else {
      title = 'Not claimed'
      body = answer.error?.message || "Couldn't claim the Open House Opportunity!"
    }
  } catch {
    title = 'Not claimed'
    body = 'No connection: open Porchlight to claim it'
  }
  await self.registration.showNotification(title, {
    body,
    tag: notification.tag,
    icon: '/icon-192.png',
    data: { url },
  })
}

async function open(url) {
  const target = new URL(url || '/dashboard', self.location.origin).href
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true })
  for (const client of windows) {
    if (new URL(client.url).origin === self.location.origin && 'focus' in client) {
      await client.focus()
      if ('navigate' in client) await client.navigate(target).catch(() => {})
      return
    }
  }
  await self.clients.openWindow(target)
}

self.addEventListener('notificationclick', (event) => {
  const notification = event.notification
  notification.close()
  if (event.action === 'claim' && notification.data?.claimToken) {
    event.waitUntil(claim(notification))
  } else {
    event.waitUntil(open(notification.data?.url))
  }
})
