// The entry decides which app this page load needs. Guests arrive from a QR code on a phone, often on
// a weak signal: the public pages are a light app of their own (React only, no router, query, zod or
// react-aria; DESIGN.md "Front end" budget ≤ 80 KB gzipped), so the agent app is never downloaded
// for them. Everything else is the agent app.
if (window.location.pathname.startsWith('/public/')) {
  void import('./features/guest/guest-main.tsx')
} else {
  void import('./agent-main.tsx')
}
