import { messages } from '@porchlight/shared'
import { useSuspenseQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { useState } from 'react'
import { errorMessage } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { FormActions } from '../../ui/Form.tsx'
import { FormPage } from '../../ui/form-page.tsx'
import { Link } from '../../ui/Link.tsx'
import { useSessionInfo } from '../session/queries.ts'
import { OpenHouseSummary } from './open-house-summary.tsx'
import { downloadCalendar, openHouseDetailsQueryOptions } from './queries.ts'

const routeApi = getRouteApi('/_agent/_licensed/openhouses/schedule/$openHouseId/updateScheduleConfirm')

/** SPEC /updateScheduleConfirm: the schedule is fixed and the open house is the agent's to host. */
export function UpdateScheduleConfirmPage() {
  const { openHouseId } = routeApi.useParams()
  const { data: oh } = useSuspenseQuery(openHouseDetailsQueryOptions(openHouseId))
  const { agent } = useSessionInfo()
  const [calendarError, setCalendarError] = useState<string | null>(null)
  const [downloading, setDownloading] = useState(false)

  const addToCalendar = async () => {
    setCalendarError(null)
    setDownloading(true)
    try {
      await downloadCalendar(oh.id)
    } catch (error) {
      setCalendarError(errorMessage(error, "Couldn't download the calendar file. Please try again."))
    } finally {
      setDownloading(false)
    }
  }

  return (
    <FormPage title="Schedule Updated" lede={oh.reProperty.completePropertyAddress}>
      <Alert tone="success" title={messages.openHouseClaimed}>
        You are hosting this open house on the date and time below.
      </Alert>
      <OpenHouseSummary oh={oh} agentId={agent?.id ?? 0} />
      {calendarError && <Alert tone="error" title={calendarError} />}
      <FormActions>
        <Button onPress={addToCalendar} isPending={downloading}>
          Add to calendar
        </Button>
        <Link to="/openhouses" search={{ activeSection: 'upcomingOH' }} variant="button-primary">
          Go to My Upcoming Open Houses
        </Link>
      </FormActions>
    </FormPage>
  )
}
