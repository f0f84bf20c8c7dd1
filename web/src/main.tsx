// Guests arrive from a QR code on a phone, often on a weak signal: the public pages are a light app
// of their own (no router, query, zod or react-aria; DESIGN.md "Front end" budget ≤ 80 KB compressed),
// built from guest.html on Preact (vite.config.ts, mode "guest") and served by the API for /public/*.
// The dev server has only this page, so there the guest pages load from here, on React.
if (import.meta.env.DEV && window.location.pathname.startsWith('/public/')) {
  void import('./features/guest/guest-main.tsx')
} else {
  void import('./agent-main.tsx')
}
