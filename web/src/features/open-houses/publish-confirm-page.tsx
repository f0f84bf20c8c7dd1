import type { OpenHouseDetails, PublishLevel } from '@porchlight/shared'
import { useSuspenseQuery } from '@tanstack/react-query'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { errorMessage } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { DisabledButton } from '../../ui/DisabledButton.tsx'
import { FormActions } from '../../ui/Form.tsx'
import { Link } from '../../ui/Link.tsx'
import { FormPage } from '../layout/form-page.tsx'
import { planUtilizationQueryOptions } from '../pricing/queries.ts'
import { setFlash } from '../session/flash.ts'
import { useSessionInfo } from '../session/queries.ts'
import { OpenHouseSummary } from './open-house-summary.tsx'
import { openHouseDetailsQueryOptions, usePublishMutation } from './queries.ts'
import './open-houses.css'

const routeApi = getRouteApi('/_agent/_licensed/openhouses/schedule/$openHouseId/confirm')

const PUBLISH_LIMIT_REASON = 'Upgrade your plan to publish more open houses'
const TITLES = { new: 'Open House Scheduled', edit: 'Open House Updated', publish: 'Publish Open House' }

/**
 * SPEC /openhouses/schedule/{id}/confirm: publish the open house now to the chosen level, or later.
 * 'Hosting Myself' needs no publishing (API.md).
 */
export function PublishConfirmPage() {
  const { openHouseId } = routeApi.useParams()
  const { method = 'new', publish } = routeApi.useSearch()
  const { data: oh } = useSuspenseQuery(openHouseDetailsQueryOptions(openHouseId))
  const { agent } = useSessionInfo()
  const agentId = agent?.id ?? 0
  const level = (publish ?? oh.publishLevel) as PublishLevel

  return (
    <FormPage title={TITLES[method]} lede={oh.reProperty.completePropertyAddress}>
      <OpenHouseSummary oh={oh} />
      <PublishChoice oh={oh} level={level} agentId={agentId} />
    </FormPage>
  )
}

function BackToList({ primary = false }: { primary?: boolean }) {
  return (
    <Link
      to="/openhouses"
      search={{ activeSection: 'upcomingOH' }}
      variant={primary ? 'button-primary' : 'button-secondary'}
    >
      {primary ? 'Go to My Upcoming Open Houses' : 'Publish Later'}
    </Link>
  )
}

function PublishChoice({
  oh,
  level,
  agentId,
}: {
  oh: OpenHouseDetails
  level: PublishLevel
  agentId: number
}) {
  const publish = usePublishMutation(agentId)
  const navigate = useNavigate()
  const { data: utilization } = useSuspenseQuery(planUtilizationQueryOptions(agentId))
  const limitReached =
    utilization.pricingPlanUtilization.totalPublishedOpenHouses >=
    utilization.pricePlan.numberOfOpenHousesPublish

  if (level === 'Hosting Myself' || oh.publishLevel === 'Hosting Myself') {
    return (
      <>
        <Alert tone="success" title="You are hosting this open house yourself.">
          It needs no publishing. Guests sign in with its QR code on the day.
        </Alert>
        <FormActions>
          <BackToList primary />
        </FormActions>
      </>
    )
  }
  if (
    oh.openHouseCanceledFlag ||
    oh.hostingREAgentId !== null ||
    oh.published ||
    oh.listingREAgentId !== agentId
  ) {
    let title = `This open house is published to ${oh.publishLevel}.`
    if (oh.openHouseCanceledFlag) title = 'This open house was canceled.'
    else if (oh.hostingREAgentName) title = `${oh.hostingREAgentName} is hosting this open house.`
    else if (oh.listingREAgentId !== agentId) {
      title = `${oh.listingREAgentName}, the listing agent, can publish it from their Open Houses page.`
    }
    return (
      <>
        <Alert tone="info" title={title} />
        <FormActions>
          <BackToList primary />
        </FormActions>
      </>
    )
  }

  const confirm = () =>
    publish.mutate(
      { openHouseId: oh.id, level },
      {
        onSuccess: () => {
          setFlash(`Open house published to ${level}.`)
          void navigate({ to: '/openhouses', search: { activeSection: 'upcomingOH' } })
        },
      },
    )

  return (
    <>
      <div className="publish-choice">
        <h2 className="publish-choice__title">Publish it now to {level}?</h2>
        <p>
          Agents it is offered to can claim it as soon as it is published; the first one to claim becomes the
          host. You can also publish it later from My Upcoming Open Houses.
        </p>
      </div>
      {publish.isError && (
        <Alert
          tone="error"
          title={errorMessage(publish.error, "Couldn't publish the Open House. Please try again.")}
        />
      )}
      <FormActions>
        <BackToList />
        {limitReached ? (
          <DisabledButton variant="primary" reason={PUBLISH_LIMIT_REASON}>
            Publish Now
          </DisabledButton>
        ) : (
          <Button variant="primary" onPress={confirm} isPending={publish.isPending}>
            {publish.isPending ? 'Publishing...' : 'Publish Now'}
          </Button>
        )}
      </FormActions>
    </>
  )
}
