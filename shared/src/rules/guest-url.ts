// The address a guest's QR code opens (SPEC §2 /public/OpenHouseToday, from=qrcode): one rule for the
// web's QR code and the server's door sign, so the printed code and the shown one never differ.

/** What the guest URL names of an open house. */
interface GuestUrlFacts {
  id: number
  rePropertyId: number
  listingREAgentId: number
  hostingREAgentId: number | null
}

/** The public guest page a visitor opens by scanning the open house's QR code, under `origin`. */
export function guestSignInUrl(origin: string, oh: GuestUrlFacts): string {
  const query = new URLSearchParams({
    openHouseId: String(oh.id),
    rePropertyId: String(oh.rePropertyId),
    // Guests become the leads of the agent at the door: the host, or the listing agent until one claims.
    reAgentId: String(oh.hostingREAgentId ?? oh.listingREAgentId),
    from: 'qrcode',
  })
  return `${origin.replace(/\/+$/, '')}/public/OpenHouseToday?${query}`
}
