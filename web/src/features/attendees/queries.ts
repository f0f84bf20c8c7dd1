import { useMutation } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '../../api/client.ts'

/** The SPEC §6 report buttons; the server queues the mail and answers 202. */
export type ReportKind = 'hosting' | 'request' | 'attendees'

const Queued = z.object({ queued: z.boolean() })

function reportPath(kind: ReportKind, openHouseId: number, hostId: number) {
  if (kind === 'hosting') return `/openhousemgmt/sendOpenHouseHostingReport/${openHouseId}`
  if (kind === 'request') return `/openhousemgmt/requestOpenHouseHostingReport/${openHouseId}`
  return `/openhousemgmt/sendOpenHouseAttendeeReport/${openHouseId}/${hostId}`
}

export function useReportMutation(openHouseId: number, hostId: number) {
  return useMutation({
    mutationFn: (kind: ReportKind) =>
      apiRequest(reportPath(kind, openHouseId, hostId), { method: 'POST', schema: Queued }),
  })
}
