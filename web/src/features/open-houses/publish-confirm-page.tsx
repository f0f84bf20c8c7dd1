import { type OpenHouseDetails, PublishLevel, publishLevelsFor } from '@porchlight/shared'
import { useSuspenseQuery } from '@tanstack/react-query'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { useRef, useState } from 'react'
import { ApiError, errorMessage } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { DisabledButton } from '../../ui/DisabledButton.tsx'
import { FormActions } from '../../ui/Form.tsx'
import { FormPage } from '../../ui/form-page.tsx'
import { Link } from '../../ui/Link.tsx'
import { Select, SelectItem } from '../../ui/Select.tsx'
import { planUtilizationQueryOptions } from '../pricing/queries.ts'
import { setFlash } from '../session/flash.ts'
import { useSessionInfo } from '../session/queries.ts'
import { confirmationOf } from './confirmation.ts'
import { ErrorList } from './error-list.tsx'
import { OpenHouseSummary } from './open-house-summary.tsx'
import { may, onShow } from './permissions.ts'
import { QrCodeDialog } from './qr-code-dialog.tsx'
import {
  openHouseDetailsQueryOptions,
  useAnotherDayMutation,
  useCloneMutation,
  usePublishMutation,
} from './queries.ts'
import '../../ui/card-list.css'
import './open-houses.css'

const routeApi = getRouteApi('/_agent/_licensed/openhouses/schedule/$openHouseId/confirm')

const PUBLISH_LIMIT_REASON = 'Upgrade your plan to publish more open houses'
const PUBLISH_FAILED = "Couldn't publish the Open House. Please try again."
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
  const level = publish ?? PublishLevel.safeParse(oh.publishLevel).data ?? 'Open To All'

  return (
    <FormPage title={TITLES[method]} lede={oh.reProperty.completePropertyAddress}>
      <OpenHouseSummary oh={oh} agentId={agent?.id ?? 0} />
      <PublishChoice
        oh={oh}
        level={level}
        agentId={agent?.id ?? 0}
        role={agent?.reAgentRole ?? 'Real Estate Agent'}
      />
      <NextSteps oh={oh} agentId={agent?.id ?? 0} />
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

/**
 * The levels this agent's role publishes to, and the open house's saved level: a listing agent may
 * publish at the team level its Team Lead chose for it, which its own role could not pick (the server
 * allows re-using the saved level). 'Hosting Myself' is not a publication.
 */
function levelChoices(role: string, saved: string): PublishLevel[] {
  const levels = publishLevelsFor(role).filter((l) => l !== 'Hosting Myself')
  const own = PublishLevel.safeParse(saved).data
  return own && own !== 'Hosting Myself' && !levels.includes(own) ? [own, ...levels] : levels
}

function PublishChoice({
  oh,
  level,
  agentId,
  role,
}: {
  oh: OpenHouseDetails
  level: PublishLevel
  agentId: number
  role: string
}) {
  const publish = usePublishMutation(agentId)
  const navigate = useNavigate()
  const choices = levelChoices(role, oh.publishLevel)
  const [chosen, setChosen] = useState<PublishLevel>(choices.includes(level) ? level : (choices[0] ?? level))
  const { data: utilization } = useSuspenseQuery(planUtilizationQueryOptions(agentId))
  const choiceRef = useRef<HTMLDivElement>(null)
  // The listing agent's plan counts the publication; a teammate publishing for it is not limited by its own.
  const limitReached =
    oh.listingREAgentId === agentId &&
    utilization.pricingPlanUtilization.totalPublishedOpenHouses >=
      utilization.pricePlan.numberOfOpenHousesPublish

  if (level === 'Hosting Myself' || oh.publishLevel === 'Hosting Myself') {
    const host = oh.hostingREAgentName ?? oh.listingREAgentName
    return (
      <>
        <Alert
          tone="success"
          title={
            may(oh, 'manageAttendees')
              ? 'You are hosting this open house yourself.'
              : `${host} is hosting this open house.`
          }
        >
          It needs no publishing. Guests sign in with its QR code on the day.
        </Alert>
        <FormActions>
          <BackToList primary />
        </FormActions>
      </>
    )
  }
  if (oh.openHouseCanceledFlag || oh.hostingREAgentId !== null || oh.published || !may(oh, 'publish')) {
    let title = `This open house is published to ${oh.publishLevel}.`
    if (oh.openHouseCanceledFlag) title = 'This open house was canceled.'
    else if (oh.hostingREAgentName) title = `${oh.hostingREAgentName} is hosting this open house.`
    else if (!may(oh, 'publish')) {
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

  // A 422 on the level is said beside the choice (which takes focus, so it is read out); anything
  // else the server answered is listed in the alert below, each message in its own words.
  const fieldErrors = publish.error instanceof ApiError ? publish.error.fieldErrors : []
  const levelError = fieldErrors
    .filter((e) => e.field === 'publishLevel')
    .map((e) => e.message)
    .join(' ')
  const others = fieldErrors.filter((e) => e.field !== 'publishLevel')
  const otherErrors =
    publish.error instanceof ApiError && others.length > 0
      ? new ApiError(publish.error.status, publish.error.code, publish.error.message, others)
      : publish.error
  const showOthers = publish.isError && (fieldErrors.length === 0 || others.length > 0)
  const confirm = () =>
    publish.mutate(
      { openHouseId: oh.id, listingAgentId: oh.listingREAgentId, level: chosen },
      {
        onSuccess: () => {
          setFlash(`Open house published to ${chosen}.`)
          void navigate({ to: '/openhouses', search: { activeSection: 'upcomingOH' } })
        },
        onError: (error) => {
          if (error instanceof ApiError && error.fieldError('publishLevel')) {
            // After the render that shows the message beside the choice.
            setTimeout(() => choiceRef.current?.querySelector('button')?.focus())
          }
        },
      },
    )

  return (
    <>
      <div className="publish-choice" ref={choiceRef}>
        <h2 className="publish-choice__title">Publish it now to {chosen}?</h2>
        <p>
          Agents it is offered to can claim it as soon as it is published; the first one to claim becomes the
          host. You can also publish it later from My Upcoming Open Houses.
        </p>
        <Select
          label="Publish Level"
          name="publishLevel"
          value={chosen}
          onChange={(key) => {
            const next = PublishLevel.safeParse(key).data
            if (next) {
              publish.reset()
              setChosen(next)
            }
          }}
          description={
            oh.listingREAgentId === agentId
              ? undefined
              : `Published for ${oh.listingREAgentName}, the listing agent. A team level offers it to your team that they joined.`
          }
          errorMessage={levelError || null}
        >
          {choices.map((l) => (
            <SelectItem key={l} id={l}>
              {l}
            </SelectItem>
          ))}
        </Select>
      </div>
      {showOthers && (
        <ErrorList
          error={otherErrors}
          title="The open house couldn't be published:"
          fallback={PUBLISH_FAILED}
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

const NOT_ON_SHOW = 'Guests can reach it once it is published or has a host.'
const NO_DATE = 'The date is not fixed yet.'
const AUTO_CLONE = 'Auto-clone is on: this open house copies itself when it ends.'

/**
 * What the host needs next (issue 32): the QR code guests scan and the door sign, as soon as guests can
 * reach the open house; and, for a weekend, the same open house on the property's next free day.
 */
function NextSteps({ oh, agentId }: { oh: OpenHouseDetails; agentId: number }) {
  const [showQr, setShowQr] = useState(false)
  const anotherDay = useAnotherDayMutation(agentId)
  const clone = useCloneMutation(agentId)
  const navigate = useNavigate()
  if (oh.openHouseCanceledFlag) return null
  const qr = may(oh, 'viewAttendees')
  const sign = may(oh, 'printDoorSign')
  const another = may(oh, 'clone')
  if (!qr && !sign && !another) return null
  const signReason = !onShow(oh) ? NOT_ON_SHOW : !oh.scheduledDate ? NO_DATE : null
  const addAnotherDay = () =>
    anotherDay.mutate(oh.id, { onSuccess: (added) => void navigate(confirmationOf(added, 'new')) })
  // The copy opens on its edit page, titled as the copy it is ("Copy of Sat 12/5 open house").
  const copy = () =>
    clone.mutate(oh.id, {
      onSuccess: (made) =>
        void navigate({ to: '/openhouses/schedule/$openHouseId/edit', params: { openHouseId: made.id } }),
    })

  return (
    <section className="next-steps" aria-labelledby="next-steps-title">
      <h2 id="next-steps-title" className="publish-choice__title">
        At the door
      </h2>
      <div className="form__actions">
        {qr &&
          (onShow(oh) ? (
            <Button onPress={() => setShowQr(true)}>Show QR</Button>
          ) : (
            <DisabledButton reason={NOT_ON_SHOW}>Show QR</DisabledButton>
          ))}
        {sign &&
          (signReason ? (
            <DisabledButton reason={signReason}>Door sign</DisabledButton>
          ) : (
            <Link
              to="/openhouses/schedule/$openHouseId/sign"
              params={{ openHouseId: oh.id }}
              variant="button-secondary"
            >
              Door sign
            </Link>
          ))}
        {another && (
          <Button onPress={addAnotherDay} isPending={anotherDay.isPending}>
            {anotherDay.isPending ? 'Adding...' : 'Add another day'}
          </Button>
        )}
        {another &&
          (oh.autoCloneOpenHouseFlag ? (
            <DisabledButton reason={AUTO_CLONE}>Clone</DisabledButton>
          ) : (
            <Button onPress={copy} isPending={clone.isPending}>
              Clone
            </Button>
          ))}
      </div>
      {another && (
        <p className="next-steps__hint">
          Add another day: the same times on the next free day for this property.
        </p>
      )}
      {clone.isError && (
        <Alert
          tone="error"
          title={errorMessage(clone.error, "Couldn't clone the open house. Please try again.")}
        />
      )}
      {anotherDay.isError && (
        <Alert
          tone="error"
          title={errorMessage(anotherDay.error, "Couldn't add another day. Please try again.")}
        />
      )}
      <QrCodeDialog oh={showQr ? oh : null} onClose={() => setShowQr(false)} />
    </section>
  )
}
