// A kiosk is a tablet or phone the host sets up at the door for a queue of visitors. The device keeps
// no agent session while it is one: starting kiosk mode signs this device out, and only the agent's
// password brings the session back. What the kiosk remembers is only who may end it and where to go.

export const KIOSK_KEY = 'porchlightKiosk' // localStorage, JSON

export interface KioskStation {
  /** The agent who set it up: its sign-in email goes with its password to leave, never shown. */
  email: string
  /** Where the agent goes when it leaves kiosk mode (its host board). */
  returnTo: string
}

export function readKioskStation(): KioskStation | null {
  try {
    const parsed = JSON.parse(localStorage.getItem(KIOSK_KEY) ?? 'null') as KioskStation | null
    return parsed && typeof parsed.email === 'string' && typeof parsed.returnTo === 'string' ? parsed : null
  } catch {
    return null
  }
}

export function kioskHref(openHouseId: number, rePropertyId: number): string {
  return `/public/OpenHouseToday/kiosk?openHouseId=${openHouseId}&rePropertyId=${rePropertyId}&from=kiosk`
}
