import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { KIOSK_KEY, type KioskStation, kioskHref } from '../../common/kiosk-station.ts'
import { ConfirmDialog } from '../../ui/Modal.tsx'
import { signOut } from '../session/sign-out.ts'

interface KioskStartProps {
  isOpen: boolean
  onOpenChange: (open: boolean) => void
  openHouseId: number
  rePropertyId: number
  /** The signed-in agent's sign-in email: asked, with its password, to leave kiosk mode. */
  email: string
}

/**
 * Turns this device into a sign-in station for one open house: the agent is signed out here (a visitor
 * at the station reaches nothing of the agent's), and only its password brings it back to the board.
 */
export function KioskStartDialog({
  isOpen,
  onOpenChange,
  openHouseId,
  rePropertyId,
  email,
}: KioskStartProps) {
  const queryClient = useQueryClient()
  const [starting, setStarting] = useState(false)

  const start = async () => {
    setStarting(true)
    const station: KioskStation = {
      email,
      returnTo: `/openhouses/schedule/${openHouseId}/manage?rePropertyId=${rePropertyId}`,
    }
    localStorage.setItem(KIOSK_KEY, JSON.stringify(station))
    await signOut(queryClient)
    window.location.assign(kioskHref(openHouseId, rePropertyId))
  }

  return (
    <ConfirmDialog
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      title="Turn this device into a kiosk?"
      confirmLabel="Start kiosk"
      cancelLabel="Cancel"
      onConfirm={() => void start()}
      isPending={starting}
    >
      <p>
        Visitors sign in one after another on this device; after each sign-in the form thanks them and clears
        itself for the next. Sign-ins made without a connection are sent once it is back.
      </p>
      <p>
        You are signed out here while it runs. To leave kiosk mode, choose Exit kiosk and enter your password
        ({email}).
      </p>
    </ConfirmDialog>
  )
}
