import { type OpenHouseDetails, PublishLevel } from '@porchlight/shared'
import { Button } from '../../ui/Button.tsx'
import { DisabledButton } from '../../ui/DisabledButton.tsx'
import { Link } from '../../ui/Link.tsx'
import { actionsFor, type OpenHouseAction } from './permissions.ts'
import type { OpenHouseList } from './queries.ts'

/** What the list does for an action that is not a plain link (dialogs, downloads, mutations). */
export type ListAction = 'details' | 'claim' | 'withdraw' | 'clone' | 'calendar' | 'qrcode' | 'requestReport'

interface OpenHouseActionsProps {
  oh: OpenHouseDetails
  list: OpenHouseList
  onAction: (action: ListAction, oh: OpenHouseDetails) => void
  /** The action now running for this open house (shows progress on its button). */
  pending?: ListAction | null
}

const AUTO_CLONE_REASON = 'Auto-clone is on: this open house copies itself when it ends.'
const NO_DATE_REASON = 'The date and time are not fixed yet.'

/** The buttons the server's policy gives the signed-in agent for one open house; each names its property. */
export function OpenHouseActions({ oh, list, onAction, pending }: OpenHouseActionsProps) {
  const allowed = new Set<OpenHouseAction>(actionsFor(oh, list))
  const where = <span className="visually-hidden"> {oh.reProperty.propertyAddress1}</span>
  const params = { openHouseId: oh.id }
  const press = (action: ListAction) => () => onAction(action, oh)

  return (
    <div className="oh-actions">
      {allowed.has('claim') && (
        <Button size="sm" variant="primary" onPress={press('claim')} isPending={pending === 'claim'}>
          Claim{where}
        </Button>
      )}
      {allowed.has('publish') && (
        <Link
          to="/openhouses/schedule/$openHouseId/confirm"
          params={params}
          search={{
            rePropertyId: oh.rePropertyId,
            reAgentId: oh.listingREAgentId,
            publish: PublishLevel.safeParse(oh.publishLevel).data,
            method: 'publish',
          }}
          variant="button-primary"
          className="link--sm"
        >
          Publish{where}
        </Link>
      )}
      {allowed.has('manage') && (
        <Link
          to="/openhouses/schedule/$openHouseId/manage"
          params={params}
          search={{ rePropertyId: oh.rePropertyId }}
          variant="button-primary"
          className="link--sm"
        >
          Manage Attendees{where}
        </Link>
      )}
      {allowed.has('attendees') && (
        <Link
          to="/openhouses/schedule/$openHouseId/manage"
          params={params}
          search={{ rePropertyId: oh.rePropertyId }}
          variant="button-secondary"
          className="link--sm"
        >
          Attendees{where}
        </Link>
      )}
      <Button size="sm" onPress={press('details')}>
        Details{where}
      </Button>
      {allowed.has('edit') && (
        <Link
          to="/openhouses/schedule/$openHouseId/edit"
          params={params}
          variant="button-secondary"
          className="link--sm"
        >
          Edit{where}
        </Link>
      )}
      {allowed.has('qrcode') && (
        <Button size="sm" onPress={press('qrcode')}>
          QR Code{where}
        </Button>
      )}
      {allowed.has('doorSign') &&
        (oh.scheduledDate ? (
          <Link
            to="/openhouses/schedule/$openHouseId/sign"
            params={params}
            variant="button-secondary"
            className="link--sm"
          >
            Door sign{where}
          </Link>
        ) : (
          <DisabledButton size="sm" reason={NO_DATE_REASON}>
            Door sign{where}
          </DisabledButton>
        ))}
      {allowed.has('calendar') &&
        (oh.startsAt ? (
          <Button size="sm" onPress={press('calendar')} isPending={pending === 'calendar'}>
            Add to calendar{where}
          </Button>
        ) : (
          <DisabledButton size="sm" reason={NO_DATE_REASON}>
            Add to calendar{where}
          </DisabledButton>
        ))}
      {allowed.has('clone') &&
        (oh.autoCloneOpenHouseFlag ? (
          <DisabledButton size="sm" reason={AUTO_CLONE_REASON}>
            Clone{where}
          </DisabledButton>
        ) : (
          <Button size="sm" onPress={press('clone')} isPending={pending === 'clone'}>
            Clone{where}
          </Button>
        ))}
      {allowed.has('withdraw') && (
        <Button size="sm" onPress={press('withdraw')} isPending={pending === 'withdraw'}>
          Withdraw{where}
        </Button>
      )}
      {allowed.has('requestReport') && (
        <Button size="sm" onPress={press('requestReport')} isPending={pending === 'requestReport'}>
          Request OH Report{where}
        </Button>
      )}
      {allowed.has('cancel') && (
        <Link
          to="/openhouses/schedule/$openHouseId/cancel"
          params={params}
          variant="button-secondary"
          className="link--sm link--danger"
        >
          Cancel{where}
        </Link>
      )}
    </div>
  )
}
