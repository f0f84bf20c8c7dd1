import type { OpenHouseDetails } from '@porchlight/shared'
import { doorSignFileName, doorSignText } from '@porchlight/shared/rules/door-sign'
import { guestSignInUrl } from '@porchlight/shared/rules/guest-url'
import type { AgentRow } from '../../db/rows.ts'
import { ConflictError } from '../../errors.ts'
import type { Access } from '../../policy/access.ts'
import { drawDoorSign } from './pdf.ts'

interface DoorSignDeps {
  access: Access
  openHouses: { details(caller: AgentRow, id: number): Promise<OpenHouseDetails> }
  /** Read when a sign is drawn: PUBLIC_URL may be settled after start (port 0). */
  config: { publicUrl: string }
}

/** The printable door sign: the guest sign-in QR code with the open house's address and time. */
export function createDoorSignService(d: DoorSignDeps) {
  return {
    /** The sign as one Letter page of PDF, for the people running the open house. */
    async pdf(caller: AgentRow, openHouseId: number): Promise<{ fileName: string; pdf: Buffer }> {
      await d.access.openHouse(caller, 'printDoorSign', openHouseId)
      const oh = await d.openHouses.details(caller, openHouseId)
      if (oh.openHouseCanceledFlag) throw new ConflictError('INVALID_STATE', 'This open house was canceled')
      // Until then its guest page does not exist: a printed code would open "not found".
      if (!oh.published && oh.hostingREAgentId === null) {
        throw new ConflictError('INVALID_STATE', 'Guests can sign in once the open house is published')
      }
      if (!oh.scheduledDate) {
        throw new ConflictError('INVALID_STATE', 'Pick the date and time of this open house first')
      }
      const sign = doorSignText(oh)
      return {
        fileName: doorSignFileName(sign.street),
        pdf: await drawDoorSign(sign, guestSignInUrl(d.config.publicUrl, oh)),
      }
    },
  }
}
