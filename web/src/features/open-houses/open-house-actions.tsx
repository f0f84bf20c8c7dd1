import { type OpenHouseDetails, PublishLevel } from '@porchlight/shared'
import { useRouter } from '@tanstack/react-router'
import { Button } from '../../ui/Button.tsx'
import { Link } from '../../ui/Link.tsx'
import { MenuButton, MenuItem } from '../../ui/Menu.tsx'
import { actionsFor, type OpenHouseAction, primaryAction } from './permissions.ts'
import type { OpenHouseList } from './queries.ts'

/** What the list does for an action that is not a plain link (dialogs, downloads, mutations). */
export type ListAction =
  | 'details'
  | 'claim'
  | 'withdraw'
  | 'clone'
  | 'anotherDay'
  | 'calendar'
  | 'qrcode'
  | 'requestReport'
  | 'sendReport'

interface OpenHouseActionsProps {
  oh: OpenHouseDetails
  list: OpenHouseList
  onAction: (action: ListAction, oh: OpenHouseDetails) => void
  /** The action now running for this open house (shows progress on its button). */
  pending?: ListAction | null
}

const AUTO_CLONE_REASON = 'Auto-clone is on: this open house copies itself when it ends.'
const NO_DATE_REASON = 'The date and time are not fixed yet.'

/** The labels of the actions, in the order the More menu lists them. */
const LABELS: Record<OpenHouseAction, string> = {
  claim: 'Claim',
  manage: 'Manage Attendees',
  attendees: 'Attendee Board',
  publish: 'Publish',
  edit: 'Edit',
  sendReport: 'Send OH Report',
  requestReport: 'Request OH Report',
  qrcode: 'QR Code',
  doorSign: 'Door sign',
  calendar: 'Add to calendar',
  clone: 'Clone',
  anotherDay: 'Add another day',
  withdraw: 'Withdraw',
  cancel: 'Cancel Open House',
}
const MENU_ORDER = Object.keys(LABELS) as OpenHouseAction[]

/**
 * What the server's policy lets the signed-in agent do with one open house: the next thing it would
 * do as the one primary button (named with the property), and the rest in a More menu.
 */
export function OpenHouseActions({ oh, list, onAction, pending }: OpenHouseActionsProps) {
  const router = useRouter()
  const actions = actionsFor(oh, list)
  const primary = primaryAction(oh, actions, list)
  const address = oh.reProperty.propertyAddress1
  const params = { openHouseId: oh.id }
  const press = (action: ListAction) => () => onAction(action, oh)
  const board = {
    to: '/openhouses/schedule/$openHouseId/manage',
    params,
    search: { rePropertyId: oh.rePropertyId },
  } as const
  const edit = { to: '/openhouses/schedule/$openHouseId/edit', params } as const
  const confirm = {
    to: '/openhouses/schedule/$openHouseId/confirm',
    params,
    search: {
      rePropertyId: oh.rePropertyId,
      reAgentId: oh.listingREAgentId,
      publish: PublishLevel.safeParse(oh.publishLevel).data,
      method: 'publish',
    },
  } as const
  const href = (action: OpenHouseAction): string | undefined => {
    const base = `/openhouses/schedule/${oh.id}`
    if (action === 'manage' || action === 'attendees') return router.buildLocation(board).href
    if (action === 'publish') return router.buildLocation(confirm).href
    if (action === 'edit') return router.buildLocation(edit).href
    if (action === 'cancel') return `${base}/cancel`
    if (action === 'doorSign') return `${base}/sign`
    return undefined
  }
  /** Why an action the agent holds cannot be used yet, shown under it in the menu. */
  const unavailable = (action: OpenHouseAction): string | undefined => {
    if ((action === 'doorSign' && !oh.scheduledDate) || (action === 'calendar' && !oh.startsAt))
      return NO_DATE_REASON
    if (action === 'clone' && oh.autoCloneOpenHouseFlag) return AUTO_CLONE_REASON
    return undefined
  }
  const rest = MENU_ORDER.filter((action) => action !== primary && actions.includes(action))
  const menuPending = pending != null && pending !== primary && pending !== 'claim'
  const where = <span className="visually-hidden"> {address}</span>

  return (
    <div className="oh-actions" data-open-house-id={oh.id}>
      {primary === null ? (
        <Button size="sm" className="oh-actions__primary" onPress={press('details')}>
          Details{where}
        </Button>
      ) : primary === 'publish' || primary === 'edit' || primary === 'manage' || primary === 'attendees' ? (
        <Link
          {...(primary === 'publish' ? confirm : primary === 'edit' ? edit : board)}
          variant="button-primary"
          className="link--sm oh-actions__primary"
        >
          {LABELS[primary]}
          {where}
        </Link>
      ) : (
        <Button
          size="sm"
          variant="primary"
          className="oh-actions__primary"
          onPress={press(primary as ListAction)}
          isPending={pending === primary}
        >
          {LABELS[primary]}
          {where}
        </Button>
      )}
      {(primary !== null || rest.length > 0) && (
        <MenuButton label="More" aria-label={`More actions for ${address}`} size="sm" isPending={menuPending}>
          {primary !== null && <MenuItem onAction={press('details')}>Details</MenuItem>}
          {rest.map((action) => {
            const reason = unavailable(action)
            return (
              <MenuItem
                key={action}
                id={action}
                href={reason ? undefined : href(action)}
                onAction={reason || href(action) ? undefined : press(action as ListAction)}
                isDisabled={reason !== undefined}
                description={reason}
                tone={action === 'cancel' || action === 'withdraw' ? 'danger' : undefined}
              >
                {LABELS[action]}
              </MenuItem>
            )
          })}
        </MenuButton>
      )}
    </div>
  )
}
