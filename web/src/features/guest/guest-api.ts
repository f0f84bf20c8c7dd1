import type { GuestSignInBody, PublicAttendee, PublicOpenHouse, SaveFeedbackBody } from '@porchlight/shared'
import { requestData } from '../../api/request.ts'

// The guest pages' calls (SPEC §7 "Public"): the agent app's fetch helper without its token and zod
// (api/request.ts), so the guest app stays light. The server validates every body.

export const getPublicOpenHouse = (id: number, signal?: AbortSignal) =>
  requestData<PublicOpenHouse>(`/public/getOpenHouseDetails/${id}`, { signal })

export const getPublicAttendees = (openHouseId: number, signal?: AbortSignal) =>
  requestData<PublicAttendee[]>(`/public/getOpenHouseAttendees/${openHouseId}?limit=200`, { signal })

/** The sign-in answers its visit's id and the guest token that visit's feedback must carry (guest-tokens.ts). */
export const saveGuestProspect = (body: GuestSignInBody) =>
  requestData<{ id: number; guestToken: string }>('/public/saveProspect', { body })

export const saveGuestFeedback = (body: SaveFeedbackBody) =>
  requestData<{ id: number }>('/public/saveOpenHouseFeedback', { body })
